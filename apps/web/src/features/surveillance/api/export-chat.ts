import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchFile, saveFile, type DownloadedFile } from '../../../lib/download';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';
import { AUDIT_KEY } from './get-audit-entries';
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

/**
 * The Export transcript button of the chats list and the chat drawer: saves the file, refreshes the audit trail (the
 * export is audited) and says how it went in a toast. `exportingId` is the chat whose export is on its way.
 */
export function useTranscriptExport(period: ChatPeriod) {
  const queryClient = useQueryClient();
  const [exportingId, setExportingId] = useState<string | null>(null);
  async function exportTranscript(chat: { id: string; url: string; created_at: string }): Promise<void> {
    setExportingId(chat.id);
    try {
      await exportChatTranscript(chat, period);
      void queryClient.invalidateQueries({ queryKey: AUDIT_KEY });
      showToast({ summary: 'Transcript exported', detail: 'The chat transcript was saved as a text file.', severity: 'success' });
    } catch (error) {
      showToast({ summary: 'Export failed', detail: describeError(error), severity: 'error' });
    } finally {
      setExportingId(null);
    }
  }
  return { exportingId, exportTranscript };
}
