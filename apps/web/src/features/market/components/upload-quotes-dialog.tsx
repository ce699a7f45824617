import {
  QUOTE_UPLOAD_COLUMNS,
  QUOTE_UPLOAD_MAX_BYTES,
  QUOTE_UPLOAD_MAX_ROWS,
  QUOTE_UPLOAD_MESSAGES,
  type QuoteUploadResult,
} from '@dart/contracts';
import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { FileUploadDialog } from '../../../components/ui/file-upload-dialog';
import { refreshKey } from '../../../lib/refresh-key';
import { showToast } from '../../../lib/toast';
import { DEPTH_KEY } from '../api/get-depth';
import { INSTRUMENTS_KEY } from '../api/list-instruments';
import { PUBLIC_RUNS_KEY } from '../api/list-public-runs';
import { downloadUploadTemplate, uploadQuotes } from '../api/upload-quotes';

export interface UploadQuotesDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** What an accepted file created. */
const quoteSummary = (result: QuoteUploadResult): string =>
  `${result.created} ${result.created === 1 ? 'quote' : 'quotes'} created (${result.bid_count} bids, ${result.ask_count} asks). They are live in the public runs.`;

/**
 * Bulk upload of quotes (`POST api/eoi/upload/`): pick a CSV or XLSX, watch the upload progress, then
 * either the summary of what was created or every row error (nothing is imported when a row is bad).
 */
export function UploadQuotesDialog({ opened, onClose }: UploadQuotesDialogProps) {
  const queryClient = useQueryClient();
  return (
    <FileUploadDialog<QuoteUploadResult>
      opened={opened}
      onClose={onClose}
      title="Upload quotes"
      description={
        <>
          One quote per row, up to {QUOTE_UPLOAD_MAX_ROWS} rows, CSV or XLSX (at most {QUOTE_UPLOAD_MAX_BYTES / 1_048_576} MB). Columns:{' '}
          <Text span ff="monospace" size="xs">
            {QUOTE_UPLOAD_COLUMNS.join(', ')}
          </Text>
          . <b>quantum</b> is face value in rupees, a whole number of bonds: plain (50000000, 5,00,00,000) or shorthand (5cr, 50L). Give a
          price or a yield (in %), not both. If any row is wrong, nothing is imported.
        </>
      }
      maxBytes={QUOTE_UPLOAD_MAX_BYTES}
      tooLargeMessage={QUOTE_UPLOAD_MESSAGES.tooLarge}
      upload={uploadQuotes}
      downloadTemplate={downloadUploadTemplate}
      onUploaded={(result) => {
        showToast({ severity: 'success', summary: 'Quotes uploaded', detail: `${result.created} quotes are now in the market.` });
        for (const key of [PUBLIC_RUNS_KEY, INSTRUMENTS_KEY, DEPTH_KEY]) refreshKey(queryClient, key);
      }}
      summary={quoteSummary}
      toastOtherFailures
    />
  );
}
