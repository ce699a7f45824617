/**
 * A file upload whose body is the file itself (CSV or XLSX: the quote upload, the inventory upload), sent with
 * XMLHttpRequest so a dialog can show upload progress (fetch reports none). As the app's HTTP client: the access
 * token in the Authorization header, one refresh-and-retry on 401, and one Idempotency-Key for both tries.
 */
import { HttpError } from '@dart/client';
import { IDEMPOTENCY_KEY_HEADER, QUOTE_UPLOAD_CONTENT_TYPES, type ErrorBody, type UploadRowError } from '@dart/contracts';
import { getAccessToken } from './access-token';
import { refreshAccessToken, reportSessionLost } from './api-client';
import { fetchFile, saveFile } from './download';

/** A refused upload: the usual error, plus the row-level errors when rows were at fault. */
export class UploadError extends HttpError {
  readonly rowErrors: UploadRowError[];
  constructor(status: number, body: ErrorBody & { row_errors?: UploadRowError[] }) {
    super(status, body);
    this.rowErrors = body.row_errors ?? [];
  }
}

/** The content type to send: from the name when the browser gives none (the server checks the bytes anyway). */
export function uploadContentType(file: File): string {
  if (file.type === QUOTE_UPLOAD_CONTENT_TYPES.xlsx || /\.xlsx$/i.test(file.name)) return QUOTE_UPLOAD_CONTENT_TYPES.xlsx;
  if (/\.csv$/i.test(file.name) || file.type === 'text/csv') return QUOTE_UPLOAD_CONTENT_TYPES.csv;
  return 'application/octet-stream';
}

function send(path: string, file: File, key: string, contentType: string, onProgress: (fraction: number) => void, signal?: AbortSignal) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', contentType);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader(IDEMPOTENCY_KEY_HEADER, key);
    const token = getAccessToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = { code: `HTTP_${xhr.status}`, message: xhr.statusText || `HTTP ${xhr.status}` };
      }
      resolve({ status: xhr.status, body });
    });
    xhr.addEventListener('error', () => reject(new TypeError('Network error')));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was cancelled.', 'AbortError')));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/**
 * POSTs `file` to `path`; resolves with the answer, rejects with an UploadError (row errors) or a network error.
 * `contentType` defaults to the CSV / XLSX type of the book uploads; attachments (support) pass the file's own.
 */
export async function uploadFile<T>(
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  contentType: string = uploadContentType(file),
): Promise<T> {
  const key = crypto.randomUUID();
  let response = await send(path, file, key, contentType, onProgress, signal);
  if (response.status === 401) {
    if (!(await refreshAccessToken().catch(() => false))) reportSessionLost();
    else {
      onProgress(0);
      response = await send(path, file, key, contentType, onProgress, signal);
    }
  }
  if (response.status >= 200 && response.status < 300) return response.body as T;
  const body =
    response.body && typeof response.body === 'object' && 'message' in response.body
      ? (response.body as ErrorBody & { row_errors?: UploadRowError[] })
      : { code: `HTTP_${response.status}`, message: `HTTP ${response.status}` };
  throw new UploadError(response.status, body);
}

/** Downloads an upload's template (`?format=csv|xlsx`) and saves it as a file. */
export async function downloadTemplate(path: string, format: 'csv' | 'xlsx', name: string): Promise<void> {
  saveFile(await fetchFile(`${path}?format=${format}`, { fallbackName: `${name}.${format}` }));
}
