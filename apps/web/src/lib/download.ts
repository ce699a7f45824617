import { HttpError } from '@dart/client';
import type { ErrorBody } from '@dart/contracts';
import { getAccessToken } from './access-token';
import { refreshAccessToken } from './api-client';

/** A file the server sent, with the name it gave it (or the caller's fallback). */
export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

export interface FetchFileOptions {
  /** What the file should be (`application/pdf`, `text/csv`, …); JSON is always accepted for an error body. */
  accept?: string;
  /** The name when the server gives none in Content-Disposition. */
  fallbackName: string;
  /** A JSON body: the call is then a POST. */
  body?: unknown;
}

/**
 * Fetches a file (the shared client reads bodies as text). The access token lives in memory, so a plain link
 * would not carry it: fetch with the bearer token, refreshing the session once on a 401 like the client does.
 * A refusal is an `HttpError` with the server's body, so `describeError` shows its message. Every download of
 * the app (contract notes, exports, bond documents, the audit trail, chat files) goes through here.
 */
export async function fetchFile(path: string, options: FetchFileOptions): Promise<DownloadedFile> {
  const send = () => {
    const token = getAccessToken();
    return fetch(path, {
      method: options.body === undefined ? 'GET' : 'POST',
      credentials: 'include',
      headers: {
        accept: options.accept ? `${options.accept}, application/json` : '*/*',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  };
  let response = await send();
  if (response.status === 401 && (await refreshAccessToken().catch(() => false))) response = await send();
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let body: ErrorBody = {
      code: `HTTP_${response.status}`,
      message: response.statusText || `The download failed (HTTP ${response.status}).`,
    };
    try {
      const parsed = JSON.parse(text) as ErrorBody;
      if (parsed && typeof parsed === 'object' && 'message' in parsed) body = parsed;
    } catch {
      // Not JSON: keep the status text.
    }
    throw new HttpError(response.status, body);
  }
  return { blob: await response.blob(), filename: fileNameOf(response.headers.get('content-disposition')) ?? options.fallbackName };
}

/** The file name the server gave in Content-Disposition (`attachment; filename="…"`), if any. */
export function fileNameOf(disposition: string | null): string | null {
  return /filename="?([^";]+)"?/.exec(disposition ?? '')?.[1] ?? null;
}

/** Saves a file with the browser's download (a temporary link to an object URL). */
export function saveFile(file: DownloadedFile): void {
  const url = URL.createObjectURL(file.blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = file.filename;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
