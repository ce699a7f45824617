import type { PriceRequest } from '@dart/contracts';
import { useMutation } from '@tanstack/react-query';
import { fetchFile, type DownloadedFile } from '../../../lib/download';

export type { DownloadedFile } from '../../../lib/download';

/** POSTs JSON and answers the PDF (`fetchFile`). */
const postForFile = (path: string, body: unknown, fallbackName: string): Promise<DownloadedFile> =>
  fetchFile(path, { body, accept: 'application/pdf', fallbackName });

/** POST /api/im/download/ {isin}: the generated information sheet (security-data permission). */
export function downloadInformationMemorandum(isin: string): Promise<DownloadedFile> {
  return postForFile('/api/im/download/', { isin }, `${isin}-information-sheet.pdf`);
}

/** POST /api/bond-details/{id}/download/: bond details PDF (security-data permission). */
export function downloadBondDetails(id: number): Promise<DownloadedFile> {
  return postForFile(`/api/bond-details/${id}/download/`, {}, `bond-details-${id}.pdf`);
}

/** POST /api/quote/{id}/download/ with the pricing inputs: the quote sheet PDF (Premium). */
export function downloadQuoteSheet(
  id: number,
  request: Pick<PriceRequest, 'yield' | 'price' | 'settlement_delta' | 'quantity'>,
): Promise<DownloadedFile> {
  return postForFile(`/api/quote/${id}/download/`, request, `quote-${id}.pdf`);
}

export function useDownloadDocument<A>(download: (args: A) => Promise<DownloadedFile>) {
  return useMutation({ mutationFn: download });
}
