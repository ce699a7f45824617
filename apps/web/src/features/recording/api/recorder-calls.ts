/**
 * The recorder's two calls. Uploads go through `fetch` directly rather than the app's HTTP client: they must not
 * trigger its 401 refresh-and-sign-out rule (a batch sent as the user signs out is simply dropped), and the one sent
 * as the page is hidden needs `keepalive` (sendBeacon cannot carry the bearer token).
 */
import type { RecordingSessionCreated } from '@dart/contracts';
import { getAccessToken } from '../../../lib/access-token';
import { http } from '../../../lib/api-client';

/** Browsers refuse keepalive requests with bodies over 64 KiB in flight; bigger ones go as ordinary requests. */
const KEEPALIVE_MAX_BYTES = 60_000;

/** POST api/recording/sessions/: starts a recording of this browser session. */
export function startRecording(): Promise<RecordingSessionCreated> {
  return http.post<RecordingSessionCreated>('/api/recording/sessions/', {});
}

export type UploadOutcome = 'stored' | 'retry' | 'stop';

/** POST api/recording/sessions/{id}/events/: 'retry' on a network error, 401, 429 or 5xx; 'stop' on 404 or 413. */
export async function uploadEvents(
  id: string,
  seq: number,
  events: unknown[],
  options: { keepalive?: boolean } = {},
): Promise<UploadOutcome> {
  const token = getAccessToken();
  if (!token) return 'retry';
  const body = JSON.stringify({ seq, events });
  try {
    const response = await fetch(`/api/recording/sessions/${encodeURIComponent(id)}/events/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
      credentials: 'same-origin',
      keepalive: Boolean(options.keepalive) && body.length <= KEEPALIVE_MAX_BYTES,
    });
    if (response.ok) return 'stored';
    // Recording switched off, the recording expired or filled up, or a batch the server will never take.
    if (response.status === 404 || response.status === 413 || response.status === 400 || response.status === 403) return 'stop';
    return 'retry';
  } catch {
    return 'retry';
  }
}
