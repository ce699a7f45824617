/** POST api/eoi/upload/ (the file is the body, with progress) and its template (`lib/upload.ts`). */
import type { QuoteUploadResult } from '@dart/contracts';
import { downloadTemplate, uploadFile } from '../../../lib/upload';

export { UploadError } from '../../../lib/upload';

/** Uploads quotes; resolves with the summary, rejects with UploadError (row errors) or a network error. */
export const uploadQuotes = (file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<QuoteUploadResult> =>
  uploadFile<QuoteUploadResult>('/api/eoi/upload/', file, onProgress, signal);

/** GET api/eoi/upload/template/?format=: the template, saved as a file. */
export const downloadUploadTemplate = (format: 'csv' | 'xlsx'): Promise<void> =>
  downloadTemplate('/api/eoi/upload/template/', format, 'dart-quotes-template');
