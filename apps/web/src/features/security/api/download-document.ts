import { HttpError } from '@dart/client';
import type { ErrorBody, PriceRequest } from '@dart/contracts';
import { useMutation } from '@tanstack/react-query';
import { getAccessToken } from '../../../lib/access-token';
import { refreshAccessToken } from '../../../lib/api-client';

export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/**
 * POSTs JSON and returns a binary answer (the shared client reads bodies as text). Same rules as the
 * client for a 401: refresh the session once and retry.
 */
async function postForFile(path: string, body: unknown, fallbackName: string): Promise<DownloadedFile> {
  const send = () => {
    const token = getAccessToken();
    return fetch(path, {
      method: 'POST',
      credentials: 'include',
      headers: {
        'content-type': 'application/json',
        accept: 'application/pdf, application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  };
  let response = await send();
  if (response.status === 401 && (await refreshAccessToken().catch(() => false))) response = await send();
  if (!response.ok) {
    const text = await response.text();
    let errorBody: ErrorBody = { code: `HTTP_${response.status}`, message: response.statusText || `HTTP ${response.status}` };
    try {
      const parsed = JSON.parse(text) as ErrorBody;
      if (parsed && typeof parsed === 'object' && 'message' in parsed) errorBody = parsed;
    } catch {
      // not JSON: keep the status text
    }
    throw new HttpError(response.status, errorBody);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  return { blob: await response.blob(), filename };
}

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
