import { http } from '../../../lib/api-client';
import { CHAT_PATHS } from './chat-paths';

/** POST api/chat/channels/{url}/read/: used when the socket is down (the socket `read` frame otherwise). */
export function markReadOverHttp(url: string, position: number): Promise<unknown> {
  return http.post<unknown>(CHAT_PATHS.read(url), { position });
}
