/**
 * SimulatedWhatsAppBridge: a faithful local stand-in for the WhatsApp Business Cloud API (README "The simulator").
 * It accepts template and text messages and gives `wamid.` ids, refuses what the real endpoint refuses (free text
 * outside the 24-hour window opened by the user's last message, more than the number's throughput per second, a
 * second message to the same user too soon), and later produces the receipts the real webhooks carry: `sent`, then
 * `delivered`, then `read` (for the share of users who read), or `failed` with the provider's error at a configurable
 * rate. It also lets a developer or a test play the user: `injectInbound` is a reply typed on the phone.
 *
 * Its state is in memory, like a remote service Dart cannot see into; Dart keeps its own record of every message.
 */
import { randomBytes } from 'node:crypto';
import {
  BridgeSendError,
  type BridgeHandlers,
  type BridgeInbound,
  type BridgeReceipt,
  type MessagingBridge,
  type OutboundBridgeMessage,
} from './messaging-bridge';

export interface SimulatedWhatsAppOptions {
  /** 0..1: the share of accepted messages that fail on the way to the phone (`131026 Message undeliverable`). */
  failureRate: number;
  /** 0..1: the share of delivered messages the user reads. */
  readRate: number;
  /** Receipts come by themselves this long after the send (`delivered`; `read` twice as long). 0 = only on `settle()`. */
  receiptDelayMs: number;
  /** The business number's throughput: messages accepted per second (the Cloud API's default is 80). */
  messagesPerSecond: number;
  /** At most one message to the same user this often (the Cloud API's pair rate limit; about 6 s). 0 = none. */
  pairIntervalMs: number;
  /** The customer-service window: free text only this long after the user's last message (24 h). */
  serviceWindowMs: number;
}

export const DEFAULT_SIMULATED_WHATSAPP: SimulatedWhatsAppOptions = {
  failureRate: 0.02,
  readRate: 0.8,
  receiptDelayMs: 1_500,
  messagesPerSecond: 80,
  pairIntervalMs: 6_000,
  serviceWindowMs: 24 * 60 * 60 * 1000,
};

/** One message as the simulated endpoint holds it (what `outbox()` lists). */
export interface SimulatedWhatsAppMessage {
  providerMessageId: string;
  to: string;
  kind: 'template' | 'text';
  template: string | null;
  parameters: string[];
  body: string;
  acceptedAt: Date;
  /** The receipts produced so far, in order. */
  statuses: BridgeReceipt['status'][];
}

interface PendingReceipt {
  dueAt: number;
  receipt: BridgeReceipt;
}

export class SimulatedWhatsAppBridge implements MessagingBridge {
  readonly name = 'simulated WhatsApp Business endpoint';
  private options: SimulatedWhatsAppOptions;
  private handlers: BridgeHandlers | null = null;
  private readonly messages = new Map<string, SimulatedWhatsAppMessage>();
  private readonly lastInboundAt = new Map<string, number>();
  private readonly lastSendTo = new Map<string, number>();
  private acceptedInLastSecond: number[] = [];
  private pending: PendingReceipt[] = [];
  private timer: NodeJS.Timeout | null = null;
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    options: Partial<SimulatedWhatsAppOptions> = {},
    private readonly now: () => Date = () => new Date(),
    private readonly random: () => number = Math.random,
  ) {
    this.options = { ...DEFAULT_SIMULATED_WHATSAPP, ...options };
  }

  /** Changes the behaviour from now on (tests: failure rate, rate limits, automatic receipts). */
  configure(options: Partial<SimulatedWhatsAppOptions>): void {
    this.options = { ...this.options, ...options };
  }

  connect(handlers: BridgeHandlers): void {
    this.handlers = handlers;
  }

  async send(message: OutboundBridgeMessage): Promise<{ providerMessageId: string }> {
    const at = this.now().getTime();
    if (!/^\d{11,15}$/.test(message.to)) throw new BridgeSendError(100, 'Invalid parameter', null);
    this.acceptedInLastSecond = this.acceptedInLastSecond.filter((t) => at - t < 1_000);
    if (this.acceptedInLastSecond.length >= this.options.messagesPerSecond)
      throw new BridgeSendError(130429, 'Rate limit hit', 1_000 - (at - this.acceptedInLastSecond[0]!));
    const last = this.lastSendTo.get(message.to);
    if (this.options.pairIntervalMs > 0 && last !== undefined && at - last < this.options.pairIntervalMs)
      throw new BridgeSendError(
        131056,
        '(Business Account, Consumer Account) pair rate limit hit',
        this.options.pairIntervalMs - (at - last),
      );
    if (message.kind === 'text') {
      const opened = this.lastInboundAt.get(message.to);
      if (opened === undefined || at - opened > this.options.serviceWindowMs)
        throw new BridgeSendError(131047, 'Re-engagement message', null);
    }
    this.acceptedInLastSecond.push(at);
    this.lastSendTo.set(message.to, at);
    const providerMessageId = `wamid.SIM${randomBytes(12).toString('hex').toUpperCase()}`;
    this.messages.set(providerMessageId, {
      providerMessageId,
      to: message.to,
      kind: message.kind,
      template: message.kind === 'template' ? message.template : null,
      parameters: message.kind === 'template' ? [...message.parameters] : [],
      body: message.body,
      acceptedAt: new Date(at),
      statuses: [],
    });
    this.scheduleReceipts(providerMessageId, at);
    return { providerMessageId };
  }

  private scheduleReceipts(providerMessageId: string, at: number): void {
    const delay = this.options.receiptDelayMs;
    const receipt = (status: BridgeReceipt['status'], offset: number, reason?: string): PendingReceipt => ({
      dueAt: at + offset,
      receipt: { providerMessageId, status, at: new Date(at + offset), ...(reason ? { reason } : {}) },
    });
    if (this.random() < this.options.failureRate) {
      this.pending.push(receipt('failed', delay, '131026 Message undeliverable'));
    } else {
      this.pending.push(receipt('sent', 0), receipt('delivered', delay));
      if (this.random() < this.options.readRate) this.pending.push(receipt('read', 2 * delay));
    }
    if (delay > 0 && !this.timer) {
      this.timer = setInterval(() => void this.deliverDue(this.now().getTime()), Math.min(delay, 500));
      this.timer.unref();
    }
  }

  /** Hands the receipts due by `upTo` to Dart, in order, one at a time. */
  private deliverDue(upTo: number): Promise<void> {
    const due = this.pending.filter((p) => p.dueAt <= upTo).sort((a, b) => a.dueAt - b.dueAt);
    this.pending = this.pending.filter((p) => p.dueAt > upTo);
    this.delivering = this.delivering.then(async () => {
      for (const { receipt } of due) {
        this.messages.get(receipt.providerMessageId)?.statuses.push(receipt.status);
        await this.handlers?.receipt(receipt).catch(() => undefined);
      }
    });
    return this.delivering;
  }

  /** Produces every receipt still to come, now, and waits until Dart has handled them (tests, dev tools). */
  settle(): Promise<void> {
    return this.deliverDue(Number.POSITIVE_INFINITY);
  }

  /** The user opens the chat: a `read` receipt for a message delivered and not yet read. */
  async markRead(providerMessageId: string): Promise<void> {
    const message = this.messages.get(providerMessageId);
    if (!message || message.statuses.includes('read') || message.statuses.includes('failed')) return;
    this.pending.push({ dueAt: 0, receipt: { providerMessageId, status: 'read', at: this.now() } });
    await this.deliverDue(0);
  }

  /** A user writes to the business number (a reply on the phone); opens the 24-hour window. */
  async injectInbound(input: { from: string; text: string; contextMessageId?: string }): Promise<BridgeInbound> {
    const at = this.now();
    const from = input.from.replace(/\D/g, '');
    this.lastInboundAt.set(from, at.getTime());
    const inbound: BridgeInbound = {
      providerMessageId: `wamid.SIM${randomBytes(12).toString('hex').toUpperCase()}`,
      from,
      text: input.text,
      at,
      ...(input.contextMessageId ? { contextMessageId: input.contextMessageId } : {}),
    };
    await this.delivering;
    await this.handlers?.inbound(inbound);
    return inbound;
  }

  /** What the endpoint accepted, oldest first (to one number, or all). */
  outbox(to?: string): SimulatedWhatsAppMessage[] {
    const all = [...this.messages.values()];
    return to === undefined ? all : all.filter((m) => m.to === to);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.delivering.catch(() => undefined);
  }
}
