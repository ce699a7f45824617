import {
  INVENTORY_MESSAGES,
  INVENTORY_UPLOAD_COLUMNS,
  INVENTORY_UPLOAD_MAX_BYTES,
  INVENTORY_UPLOAD_MAX_ROWS,
  type InventoryUploadResult,
} from '@dart/contracts';
import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { FileUploadDialog } from '../../../components/ui/file-upload-dialog';
import { showToast } from '../../../lib/toast';
import { INVENTORY_KEY } from '../api/get-inventory';
import { downloadHoldingsTemplate, uploadHoldings } from '../api/upload-holdings';

/** What an accepted file imported. */
const bookSummary = (result: InventoryUploadResult): string =>
  `${result.imported} ${result.imported === 1 ? 'holding' : 'holdings'} imported (${result.created} new, ${result.updated} updated) into the book of ${result.book_date}.`;

/**
 * Upload the book (`POST api/inventory/upload/`): a CSV or XLSX of holdings, the upload's progress, then what was
 * imported or every row error (one bad row and nothing is imported). Each row sets its ISIN + account holding.
 */
export function UploadHoldingsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  return (
    <FileUploadDialog<InventoryUploadResult>
      opened={opened}
      onClose={onClose}
      title="Upload your book"
      description={
        <>
          One holding per row, up to {INVENTORY_UPLOAD_MAX_ROWS.toLocaleString('en-IN')} rows, CSV or XLSX (at most{' '}
          {INVENTORY_UPLOAD_MAX_BYTES / 1_048_576} MB). Columns:{' '}
          <Text span ff="monospace" size="xs">
            {INVENTORY_UPLOAD_COLUMNS.join(', ')}
          </Text>
          . <b>face_value</b> in rupees, a whole number of bonds (5cr, 50L or plain); <b>valuation_cost</b> is the clean price per ₹100;
          <b> date</b> and <b>account</b> are optional (account MAIN when empty). Each row sets that holding; if any row is wrong, nothing
          is imported.
        </>
      }
      maxBytes={INVENTORY_UPLOAD_MAX_BYTES}
      tooLargeMessage={INVENTORY_MESSAGES.tooLarge}
      upload={uploadHoldings}
      downloadTemplate={downloadHoldingsTemplate}
      onUploaded={(result) => {
        showToast({ severity: 'success', summary: 'Book uploaded', detail: `${result.imported} holdings imported.` });
        void queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
      }}
      summary={bookSummary}
      testIdPrefix="inventory-"
    />
  );
}
