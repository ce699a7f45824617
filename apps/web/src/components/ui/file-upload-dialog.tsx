import type { UploadRowError } from '@dart/contracts';
import { Alert, Anchor, Button, FileInput, Group, Modal, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useRef, useState, type ReactNode } from 'react';
import { describeError } from '../../lib/errors';
import { showToast } from '../../lib/toast';
import { UploadError } from '../../lib/upload';
import { ListIcon } from './icons';

type Phase<R> =
  | { kind: 'idle' }
  | { kind: 'uploading'; progress: number }
  | { kind: 'done'; result: R }
  | { kind: 'refused'; message: string; rowErrors: UploadRowError[] };

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface FileUploadDialogProps<R> {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** What the file holds (columns, limits, the all-or-nothing rule). */
  description: ReactNode;
  maxBytes: number;
  tooLargeMessage: string;
  upload: (file: File, onProgress: (fraction: number) => void, signal: AbortSignal) => Promise<R>;
  downloadTemplate: (format: 'csv' | 'xlsx') => Promise<void>;
  /** After a successful upload: the toast, refreshed queries. */
  onUploaded: (result: R) => void;
  /** The summary shown in the dialog after a successful upload. */
  summary: (result: R) => string;
  /** A failure that is not the file's (network, session): also a toast with the spec's 'Error uploading file'. */
  toastOtherFailures?: boolean;
  /** Prefix of the test ids (`${prefix}upload-file`, `…-progress`, `…-summary`, `…-refused`, `…-row-errors`). */
  testIdPrefix?: string;
}

/**
 * A CSV/XLSX upload in a dialog (the quote upload, the book upload): the template links, the file with its size
 * check, the upload's progress, then the summary or every row error (one bad row and nothing is imported).
 */
export function FileUploadDialog<R>(props: FileUploadDialogProps<R>) {
  const { opened, onClose, title, description, maxBytes, tooLargeMessage, testIdPrefix = '' } = props;
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase<R>>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const tooLarge = file !== null && file.size > maxBytes;
  const testId = (name: string) => `${testIdPrefix}upload-${name}`;

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
      const result = await props.upload(file, (progress) => setPhase({ kind: 'uploading', progress }), controller.signal);
      setPhase({ kind: 'done', result });
      props.onUploaded(result);
    } catch (error) {
      if (controller.signal.aborted) return;
      setPhase({
        kind: 'refused',
        // Row errors come with the server's summary ('2 rows have errors; …') above the table.
        message: error instanceof UploadError && error.rowErrors.length > 0 ? error.body.message : describeError(error),
        rowErrors: error instanceof UploadError ? error.rowErrors : [],
      });
      if (props.toastOtherFailures && !(error instanceof UploadError))
        showToast({ severity: 'error', summary: 'Error uploading file', detail: describeError(error) });
    } finally {
      abort.current = null;
    }
  }

  const template = (format: 'csv' | 'xlsx') => () =>
    void props
      .downloadTemplate(format)
      .catch((error: unknown) =>
        showToast({ severity: 'error', summary: 'Could not download the template', detail: describeError(error) }),
      );

  return (
    <Modal opened={opened} onClose={close} title={title} size="lg" centered>
      <Stack gap="sm">
        <Text size="sm">{description}</Text>
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
          error={tooLarge ? tooLargeMessage : undefined}
          disabled={phase.kind === 'uploading'}
          data-testid={testId('file')}
        />

        {phase.kind === 'uploading' ? (
          <Stack gap={4}>
            <Progress value={Math.round(phase.progress * 100)} animated aria-label="Upload progress" data-testid={testId('progress')} />
            <Text size="xs" c="dimmed" aria-live="polite">
              {phase.progress < 1 ? `Uploading… ${Math.round(phase.progress * 100)}%` : 'Checking every row…'}
            </Text>
          </Stack>
        ) : null}

        {phase.kind === 'done' ? (
          <Alert color="teal" variant="light" title="Upload complete" data-testid={testId('summary')}>
            {props.summary(phase.result)}
          </Alert>
        ) : null}

        {phase.kind === 'refused' ? (
          <Alert color="red" variant="light" title="Nothing was imported" data-testid={testId('refused')} role="alert">
            <Stack gap="xs">
              <Text size="sm">{phase.message}</Text>
              {phase.rowErrors.length > 0 ? (
                <ScrollArea.Autosize mah={240}>
                  <Table withTableBorder striped fz="xs" verticalSpacing={4} aria-label="Row errors" data-testid={testId('row-errors')}>
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
