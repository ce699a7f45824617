import { fetchFile, saveFile } from '../../../lib/download';

/** Downloads a chat file (the `url` of `ChatFile`) under the file's own name. */
export async function downloadChatFile(url: string, fileName: string): Promise<void> {
  const file = await fetchFile(url, { fallbackName: fileName });
  saveFile({ blob: file.blob, filename: fileName });
}
