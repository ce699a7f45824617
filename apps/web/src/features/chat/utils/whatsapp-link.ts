/**
 * The WhatsApp link of a chat channel (issue 16 §2; spec: the cached flag `is_whatsapp_linked_channel`): who may link
 * it (the server's rule, so the switch shows only where it would be allowed) and which messages came in from WhatsApp.
 */
import type { Channel, ChatMessage } from '@dart/contracts';

/** A joined member who can write: an operator of a group, either member of a direct chat; broadcasts never. */
export function canLinkToWhatsApp(channel: Pick<Channel, 'customType' | 'myRole' | 'myMemberState'>, writable: boolean): boolean {
  if (!writable || channel.myMemberState !== 'joined' || channel.customType === 'broadcast') return false;
  return channel.customType === 'direct' || channel.myRole === 'operator';
}

/** A reply typed on WhatsApp and posted into the channel by the bridge carries the provider's message id. */
export function cameFromWhatsApp(message: Pick<ChatMessage, 'data'>): boolean {
  const whatsapp = message.data?.whatsapp;
  return (
    typeof whatsapp === 'object' &&
    whatsapp !== null &&
    typeof (whatsapp as { provider_message_id?: unknown }).provider_message_id === 'string'
  );
}
