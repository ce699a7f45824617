/**
 * Private runs sent into a chat (spec "private runs (quotes sent from chats)"; contract: PRIVATE_RUN_*
 * in packages/contracts/src/chat.ts): who such a quote must go to, the card a message carries, and how
 * the viewer stands to it. The server checks the same rules (server `chat.private-run.ts`).
 */
import { PRIVATE_RUN_CUSTOM_TYPE, PrivateRunCardSchema, type Channel, type ChatMessage, type PrivateRunCard } from '@dart/contracts';

/** The text a private run message is sent with; the server replaces it with the card's words. */
export const PRIVATE_RUN_TEXT = 'Private run';

/** A firm in a channel: its client id and the name shown (the brand, else the member's nickname). */
export interface ChatFirm {
  clientId: string;
  name: string;
}

/**
 * The other firms among the channel's current members, in member order, each once: a private run sent
 * here must be addressed to every one of them. Invitees count (they read the channel too, and the
 * server requires them). A broadcast's recipients are not members, so a broadcast has none.
 */
export function privateRunFirms(channel: Channel, myClientId: string): ChatFirm[] {
  if (channel.customType === 'broadcast') return [];
  const firms = new Map<string, string>();
  for (const member of channel.members) {
    const clientId = member.metaData.client_id;
    if (!clientId || clientId === myClientId || firms.has(clientId)) continue;
    firms.set(clientId, member.metaData.brand_name.trim() || member.nickname);
  }
  return [...firms].map(([clientId, name]) => ({ clientId, name }));
}

/** The card of a private run message; null for other messages and for a card that does not parse (its text is shown). */
export function privateRunCardOf(message: Pick<ChatMessage, 'customType' | 'data'>): PrivateRunCard | null {
  if (message.customType !== PRIVATE_RUN_CUSTOM_TYPE) return null;
  const parsed = PrivateRunCardSchema.safeParse(message.data.private_run);
  return parsed.success ? parsed.data : null;
}

/**
 * How the viewer stands to a private run: its sender, someone of the sender's firm (neither may
 * counter their own firm's quote), or another firm, who may counter. A sender who has left the channel
 * counts as another firm; the negotiation dialog then tells from the quote itself.
 */
export type PrivateRunViewer = 'sender' | 'own-firm' | 'other-firm';

export function privateRunViewer(
  message: Pick<ChatMessage, 'sender'>,
  channel: Channel,
  myUserId: string,
  myClientId: string,
): PrivateRunViewer {
  const senderId = message.sender?.userId;
  if (senderId === myUserId) return 'sender';
  const sender = channel.members.find((member) => member.userId === senderId);
  return sender && sender.metaData.client_id === myClientId ? 'own-firm' : 'other-firm';
}
