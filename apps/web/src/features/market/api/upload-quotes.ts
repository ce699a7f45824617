/**
 * POST api/eoi/upload/: the file itself is the request body (CSV or XLSX), sent with XMLHttpRequest so
 * the dialog can show upload progress (fetch reports none). Same rules as the app's HTTP client: the
 * access token in the Authorization header, and one refresh-and-retry on 401.
 */
import { HttpError } from '@dart/client';
import { QUOTE_UPLOAD_CONTENT_TYPES, type ErrorBody, type QuoteUploadError, type QuoteUploadResult } from '@dart/contracts';
import { getAccessToken } from '../../../lib/access-token';
import { refreshAccessToken, reportSessionLost } from '../../../lib/api-client';

/** A refused upload: the usual error, plus the row-level errors when rows were at fault. */
export class UploadError extends HttpError {
  readonly rowErrors: QuoteUploadError['row_errors'];
  constructor(status: number, body: ErrorBody & { row_errors?: QuoteUploadError['row_errors'] }) {
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

function send(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/eoi/upload/');
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', uploadContentType(file));
    xhr.setRequestHeader('accept', 'application/json');
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

/** Uploads quotes; resolves with the summary, rejects with UploadError (row errors) or a network error. */
export async function uploadQuotes(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<QuoteUploadResult> {
  let response = await send(file, onProgress, signal);
  if (response.status === 401) {
    if (!(await refreshAccessToken().catch(() => false))) {
      reportSessionLost();
    } else {
      onProgress(0);
      response = await send(file, onProgress, signal);
    }
  }
  if (response.status >= 200 && response.status < 300) return response.body as QuoteUploadResult;
  const body =
    response.body && typeof response.body === 'object' && 'message' in response.body
      ? (response.body as ErrorBody & { row_errors?: QuoteUploadError['row_errors'] })
      : { code: `HTTP_${response.status}`, message: `HTTP ${response.status}` };
  throw new UploadError(response.status, body);
}

/** GET api/eoi/upload/template/?format=: downloads the template (with the session's token) as a file. */
export async function downloadUploadTemplate(format: 'csv' | 'xlsx'): Promise<void> {
  const fetchTemplate = () => {
    const token = getAccessToken();
    return fetch(`/api/eoi/upload/template/?format=${format}`, {
      credentials: 'include',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  };
  let response = await fetchTemplate();
  if (response.status === 401 && (await refreshAccessToken().catch(() => false))) response = await fetchTemplate();
  if (!response.ok) throw new HttpError(response.status, { code: `HTTP_${response.status}`, message: 'Could not download the template.' });
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `dart-quotes-template.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
