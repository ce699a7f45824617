import { CHAT_MESSAGES, ChatMessageSchema, type ChatMessage } from '@dart/contracts';
import { getAccessToken } from '../../../lib/access-token';
import { refreshAccessToken } from '../../../lib/api-client';
import { CHAT_PATHS } from './chat-paths';

export class ChatUploadError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'ChatUploadError';
    this.status = status;
  }
}

/** The server's message from an error body, else the spec's 'Error uploading file' (§8). */
function uploadErrorMessage(xhr: XMLHttpRequest): string {
  try {
    const body = JSON.parse(xhr.responseText) as { message?: unknown; errors?: Record<string, unknown> };
    const fieldError = body.errors ? Object.values(body.errors).flat()[0] : undefined;
    if (typeof fieldError === 'string' && fieldError) return fieldError;
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not JSON
  }
  return CHAT_MESSAGES.fileUploadFailed;
}

function send(url: string, file: File, reqId: string, onProgress: (fraction: number) => void, signal?: AbortSignal) {
  return new Promise<{ status: number; xhr: XMLHttpRequest }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = new URLSearchParams({ reqId, fileName: file.name });
    xhr.open('POST', `${CHAT_PATHS.files(url)}?${query.toString()}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('accept', 'application/json');
    const token = getAccessToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => resolve({ status: xhr.status, xhr }));
    xhr.addEventListener('error', () => reject(new ChatUploadError(CHAT_MESSAGES.fileUploadFailed, 0)));
    xhr.addEventListener('abort', () => reject(new ChatUploadError('Upload cancelled', 0)));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/**
 * POST api/chat/channels/{url}/files/?reqId&fileName with the raw file as the body (Content-Type =
 * its mime type), over XHR for upload progress (0…1). A 401 refreshes the session once and retries.
 * Resolves with the stored file message when the server answers one.
 */
export async function uploadChatFile(
  url: string,
  file: File,
  reqId: string,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ChatMessage | null> {
  let { status, xhr } = await send(url, file, reqId, onProgress, signal);
  if (status === 401 && (await refreshAccessToken().catch(() => false)))
    ({ status, xhr } = await send(url, file, reqId, onProgress, signal));
  if (status < 200 || status >= 300) throw new ChatUploadError(uploadErrorMessage(xhr), status);
  onProgress(1);
  try {
    const body: unknown = JSON.parse(xhr.responseText);
    const direct = ChatMessageSchema.safeParse(body);
    if (direct.success) return direct.data;
    const wrapped = ChatMessageSchema.safeParse((body as { message?: unknown } | null)?.message);
    return wrapped.success ? wrapped.data : null;
  } catch {
    return null;
  }
}
