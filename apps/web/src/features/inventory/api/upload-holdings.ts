/** POST api/inventory/upload/ (the file is the body, with progress) and its template (`lib/upload.ts`). */
import type { InventoryUploadResult } from '@dart/contracts';
import { downloadTemplate, uploadFile } from '../../../lib/upload';

export { UploadError as HoldingsUploadError } from '../../../lib/upload';

/** Uploads a book; resolves with the summary, rejects with HoldingsUploadError (row errors) or a network error. */
export const uploadHoldings = (file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<InventoryUploadResult> =>
  uploadFile<InventoryUploadResult>('/api/inventory/upload/', file, onProgress, signal);

/** GET api/inventory/upload/template/?format=: the template (two real bonds), saved as a file. */
export const downloadHoldingsTemplate = (format: 'csv' | 'xlsx'): Promise<void> =>
  downloadTemplate('/api/inventory/upload/template/', format, 'dart-inventory-template');
