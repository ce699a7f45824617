/**
 * `MessagingBridge`: what Dart needs from a WhatsApp Business endpoint (README "The bridge"). A real provider (the
 * WhatsApp Business Cloud API) plugs in behind it; `SimulatedWhatsAppBridge` stands in for it here. The shapes follow
 * the Cloud API: a send is accepted with a provider message id (`wamid.…`) or refused with an error code; delivery and
 * read receipts and failures arrive later, asynchronously (webhooks there, a handler here); a user's reply arrives
 * the same way, with `context` naming the message replied to.
 */

/** An outbound message. `template`: a pre-approved template with parameters (allowed at any time); `text`: free text,
 * allowed only inside the 24-hour customer-service window that the user's last inbound message opened. */
export type OutboundBridgeMessage =
  { to: string; kind: 'template'; template: string; parameters: string[]; body: string } | { to: string; kind: 'text'; body: string };

/** The provider's receipt statuses (Cloud API `statuses[].status`). */
export type BridgeReceiptStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface BridgeReceipt {
  providerMessageId: string;
  status: BridgeReceiptStatus;
  at: Date;
  /** `failed` only: the provider's error, as `<code> <title>`. */
  reason?: string;
}

export interface BridgeInbound {
  providerMessageId: string;
  /** The user's number, E.164 without the plus (as the Cloud API gives it). */
  from: string;
  text: string;
  at: Date;
  /** The provider id of the message this one replies to, if the user replied to one. */
  contextMessageId?: string;
}

/** Why a send was refused; `retryAfterMs` set: try again later (rate limits), else do not. */
export class BridgeSendError extends Error {
  constructor(
    readonly code: number,
    readonly title: string,
    readonly retryAfterMs: number | null,
  ) {
    super(`${code} ${title}`);
    this.name = 'BridgeSendError';
  }
}

export interface BridgeHandlers {
  /** A receipt for a message sent earlier; may arrive out of order or twice (the caller ranks and de-duplicates). */
  receipt(receipt: BridgeReceipt): Promise<void>;
  /** A user wrote to the business number. */
  inbound(message: BridgeInbound): Promise<void>;
}

export interface MessagingBridge {
  /** A readable name for logs and the README ("simulated WhatsApp Business endpoint"). */
  readonly name: string;
  /** Accepted: the provider's message id. Refused: throws `BridgeSendError`. */
  send(message: OutboundBridgeMessage): Promise<{ providerMessageId: string }>;
  /** Where receipts and inbound messages go; set once at start. */
  connect(handlers: BridgeHandlers): void;
  close(): Promise<void>;
}

/** The number as the provider wants it: digits only, with India's country code on a 10-digit Indian mobile. */
export function toWhatsAppNumber(mobile: string): string {
  const digits = mobile.replace(/\D/g, '');
  return digits.length === 10 ? `91${digits}` : digits;
}
