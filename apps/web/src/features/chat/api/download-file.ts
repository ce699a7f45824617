import { getAccessToken } from '../../../lib/access-token';
import { refreshAccessToken } from '../../../lib/api-client';

/**
 * Downloads a chat file (the `url` of `ChatFile`). The access token lives in memory, so a plain link
 * would not carry it: fetch with the bearer token, then save the blob under the file's name.
 */
export async function downloadChatFile(url: string, fileName: string): Promise<void> {
  const get = () => {
    const token = getAccessToken();
    return fetch(url, { credentials: 'include', headers: token ? { authorization: `Bearer ${token}` } : {} });
  };
  let response = await get();
  if (response.status === 401 && (await refreshAccessToken().catch(() => false))) response = await get();
  if (!response.ok) throw new Error(`The file could not be downloaded (HTTP ${response.status}).`);
  const objectUrl = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = objectUrl;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
}
