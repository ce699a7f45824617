import type { Channel } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { patchChannel } from '../utils/chat-cache';
import { CHAT_PATHS } from './chat-paths';

interface LinkResult {
  url: string;
  is_whatsapp_linked_channel: boolean;
}

/** PUT api/whatsapp/channels/{url}/link/ `{linked}`: from now on the channel's messages also go over WhatsApp. */
export function linkChannelToWhatsApp(url: string, linked: boolean): Promise<LinkResult> {
  return http.put<LinkResult>(CHAT_PATHS.whatsappLink(url), { linked });
}

/** The sockets are not told of a link change: the answer patches the cached channel at once. */
export function useLinkChannelToWhatsApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ url, linked }: { url: string; linked: boolean }) => linkChannelToWhatsApp(url, linked),
    onSuccess: (result) =>
      patchChannel(queryClient, result.url, (channel: Channel) => ({
        ...channel,
        is_whatsapp_linked_channel: result.is_whatsapp_linked_channel,
      })),
  });
}
