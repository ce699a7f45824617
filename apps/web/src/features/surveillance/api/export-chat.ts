import { fetchFile, saveFile, type DownloadedFile } from '../../../lib/download';
import { exportRange, type ChatPeriod } from '../utils/chat-period';

/**
 * POST /api/download-chats (spec): the transcript of one channel in the period, a text file saved under the server's
 * name. Compliance officers of a member firm may export any of the firm's chats; the server audits it.
 */
export async function exportChatTranscript(chat: { url: string; created_at: string }, period: ChatPeriod): Promise<DownloadedFile> {
  const file = await fetchFile('/api/download-chats', {
    accept: 'text/plain',
    fallbackName: `chat-${chat.url}.txt`,
    body: { ...exportRange(period, chat.created_at, new Date()), channelIds: [chat.url] },
  });
  saveFile(file);
  return file;
}
