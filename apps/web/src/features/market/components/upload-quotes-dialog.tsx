import {
  QUOTE_UPLOAD_COLUMNS,
  QUOTE_UPLOAD_MAX_BYTES,
  QUOTE_UPLOAD_MAX_ROWS,
  QUOTE_UPLOAD_MESSAGES,
  type QuoteUploadResult,
  type UploadRowError,
} from '@dart/contracts';
import { Alert, Anchor, Button, FileInput, Group, Modal, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ListIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';
import { INSTRUMENTS_KEY } from '../api/list-instruments';
import { PUBLIC_RUNS_KEY } from '../api/list-public-runs';
import { DEPTH_KEY } from '../api/get-depth';
import { downloadUploadTemplate, UploadError, uploadQuotes } from '../api/upload-quotes';
import { refreshKey } from '../utils/refresh-key';

export interface UploadQuotesDialogProps {
  opened: boolean;
  onClose: () => void;
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; progress: number }
  | { kind: 'done'; result: QuoteUploadResult }
  | { kind: 'refused'; message: string; rowErrors: UploadRowError[] };

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Bulk upload of quotes (`POST api/eoi/upload/`): pick a CSV or XLSX, watch the upload progress, then
 * either the summary of what was created or every row error (nothing is imported when a row is bad).
 */
export function UploadQuotesDialog({ opened, onClose }: UploadQuotesDialogProps) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const tooLarge = file !== null && file.size > QUOTE_UPLOAD_MAX_BYTES;

  const reset = () => {
    setFile(null);
    setPhase({ kind: 'idle' });
  };
  const close = () => {
    abort.current?.abort();
    reset();
    onClose();
  };

  async function submit() {
    if (!file || tooLarge) return;
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'uploading', progress: 0 });
    try {
      const result = await uploadQuotes(file, (progress) => setPhase({ kind: 'uploading', progress }), controller.signal);
      setPhase({ kind: 'done', result });
      showToast({ severity: 'success', summary: 'Quotes uploaded', detail: `${result.created} quotes are now in the market.` });
      for (const key of [PUBLIC_RUNS_KEY, INSTRUMENTS_KEY, DEPTH_KEY]) refreshKey(queryClient, key);
    } catch (error) {
      if (controller.signal.aborted) return;
      setPhase({
        kind: 'refused',
        // Row errors come with the server's summary ('2 rows have errors; …') above the table.
        message: error instanceof UploadError && error.rowErrors.length > 0 ? error.body.message : describeError(error),
        rowErrors: error instanceof UploadError ? error.rowErrors : [],
      });
      if (!(error instanceof UploadError)) showToast({ severity: 'error', summary: 'Error uploading file', detail: describeError(error) });
    } finally {
      abort.current = null;
    }
  }

  const template = (format: 'csv' | 'xlsx') => () =>
    void downloadUploadTemplate(format).catch((error: unknown) =>
      showToast({ severity: 'error', summary: 'Could not download the template', detail: describeError(error) }),
    );

  return (
    <Modal opened={opened} onClose={close} title="Upload quotes" size="lg" centered>
      <Stack gap="sm">
        <Text size="sm">
          One quote per row, up to {QUOTE_UPLOAD_MAX_ROWS} rows, CSV or XLSX (at most {QUOTE_UPLOAD_MAX_BYTES / 1_048_576} MB). Columns:{' '}
          <Text span ff="monospace" size="xs">
            {QUOTE_UPLOAD_COLUMNS.join(', ')}
          </Text>
          . <b>quantum</b> is face value in rupees, a whole number of bonds: plain (50000000, 5,00,00,000) or shorthand (5cr, 50L). Give a
          price or a yield (in %), not both. If any row is wrong, nothing is imported.
        </Text>
        <Group gap="xs">
          <Text size="sm">Template:</Text>
          <Anchor component="button" type="button" size="sm" onClick={template('csv')}>
            CSV
          </Anchor>
          <Anchor component="button" type="button" size="sm" onClick={template('xlsx')}>
            XLSX
          </Anchor>
        </Group>
        <FileInput
          label="File"
          placeholder="Choose a CSV or XLSX file"
          accept={ACCEPT}
          value={file}
          onChange={(picked) => {
            setFile(picked);
            setPhase({ kind: 'idle' });
          }}
          clearable
          leftSection={<ListIcon size={16} />}
          error={tooLarge ? QUOTE_UPLOAD_MESSAGES.tooLarge : undefined}
          disabled={phase.kind === 'uploading'}
          data-testid="upload-file"
        />

        {phase.kind === 'uploading' ? (
          <Stack gap={4}>
            <Progress value={Math.round(phase.progress * 100)} animated aria-label="Upload progress" data-testid="upload-progress" />
            <Text size="xs" c="dimmed">
              {phase.progress < 1 ? `Uploading… ${Math.round(phase.progress * 100)}%` : 'Checking every row…'}
            </Text>
          </Stack>
        ) : null}

        {phase.kind === 'done' ? (
          <Alert color="teal" variant="light" title="Upload complete" data-testid="upload-summary">
            {phase.result.created} {phase.result.created === 1 ? 'quote' : 'quotes'} created ({phase.result.bid_count} bids,{' '}
            {phase.result.ask_count} asks). They are live in the public runs.
          </Alert>
        ) : null}

        {phase.kind === 'refused' ? (
          <Alert color="red" variant="light" title="Nothing was imported" data-testid="upload-refused">
            <Stack gap="xs">
              <Text size="sm">{phase.message}</Text>
              {phase.rowErrors.length > 0 ? (
                <ScrollArea.Autosize mah={240}>
                  <Table withTableBorder striped fz="xs" verticalSpacing={4} aria-label="Row errors" data-testid="upload-row-errors">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Row</Table.Th>
                        <Table.Th>Column</Table.Th>
                        <Table.Th>Problem</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {phase.rowErrors.map((e, index) => (
                        <Table.Tr key={`${e.row}-${e.field}-${index}`}>
                          <Table.Td>{e.row}</Table.Td>
                          <Table.Td ff="monospace">{e.field}</Table.Td>
                          <Table.Td>{e.message}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollArea.Autosize>
              ) : null}
            </Stack>
          </Alert>
        ) : null}

        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close}>
            {phase.kind === 'done' ? 'Close' : 'Cancel'}
          </Button>
          {phase.kind === 'done' ? (
            <Button variant="light" onClick={reset}>
              Upload another
            </Button>
          ) : (
            <Button onClick={() => void submit()} disabled={!file || tooLarge} loading={phase.kind === 'uploading'}>
              Upload
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
