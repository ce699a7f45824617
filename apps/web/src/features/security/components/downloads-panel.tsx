import { IM_DOWNLOAD_HINT, IM_DOWNLOAD_SUCCESS } from '@dart/contracts';
import { Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { saveFile as save } from '../../../lib/download';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';
import {
  downloadBondDetails,
  downloadInformationMemorandum,
  downloadQuoteSheet,
  useDownloadDocument,
  type DownloadedFile,
} from '../api/download-document';
import { quoteRequestFor, type PricingDetails } from '../utils/pricing-details';
import { AccessPrompt, type SecurityAccess } from './access-prompt';

/** IM (generated information sheet), bond details and the quote sheet for the current pricing inputs — each a PDF. */
export function DownloadsPanel({
  finstrumentId,
  isin,
  access,
  pricing,
  upgradeAction,
}: {
  finstrumentId: number;
  isin: string;
  access: SecurityAccess;
  pricing: PricingDetails | null;
  upgradeAction?: ReactNode;
}) {
  const im = useDownloadDocument(downloadInformationMemorandum);
  const details = useDownloadDocument(downloadBondDetails);
  const quote = useDownloadDocument((request: ReturnType<typeof quoteRequestFor>) => downloadQuoteSheet(finstrumentId, request));

  async function run<A>(mutation: { mutateAsync: (args: A) => Promise<DownloadedFile> }, args: A, success: string) {
    try {
      save(await mutation.mutateAsync(args));
      showToast({ summary: success, severity: 'success' });
    } catch (error) {
      showToast({ summary: 'Download failed', detail: describeError(error), severity: 'error' });
    }
  }

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="downloads-title">
      <Stack gap="md">
        <Title order={2} fz="lg" id="downloads-title">
          Documents
        </Title>
        {access === 'visitor' || access === 'no-permission' ? (
          <AccessPrompt access={access} what="documents" />
        ) : (
          <>
            <Group gap="sm" wrap="wrap">
              <Tooltip label={IM_DOWNLOAD_HINT} withArrow>
                <Button variant="light" loading={im.isPending} onClick={() => void run(im, isin, IM_DOWNLOAD_SUCCESS)}>
                  Download IM
                </Button>
              </Tooltip>
              <Button
                variant="default"
                loading={details.isPending}
                onClick={() => void run(details, finstrumentId, 'Bond details downloaded')}
              >
                Bond details PDF
              </Button>
              <Button
                variant="default"
                loading={quote.isPending}
                disabled={access === 'basic'}
                onClick={() => void run(quote, quoteRequestFor(pricing), 'Quote sheet downloaded')}
              >
                Quote sheet PDF
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              The IM is an information sheet Dart generates from the reference data (labelled as generated), not the issuer&apos;s own
              memorandum. The quote sheet uses the yield or price, settlement and quantity in the price calculator.
            </Text>
            {access === 'basic' ? <AccessPrompt access="basic" what="quote sheets" action={upgradeAction} /> : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}
