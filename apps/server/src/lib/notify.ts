/**
 * Outbound messages. `Mailer` and `SmsSender` are the interfaces real providers plug into; the
 * development implementations write to the dev_outbox table, which developers and the e2e tests
 * read through GET /api/dev/outbox. That route is public and shows one-time passwords, so it exists
 * outside production only: loadConfig refuses DEV_OUTBOX=1 with NODE_ENV=production, and
 * system.routes.ts never registers it in production. The table itself is read by nothing else.
 */
import type { DbOrTx } from '../db/client';
import { devOutbox } from '../db/schema';

export interface OutboundEmail {
  to: string;
  subject: string;
  text: string;
}
export interface OutboundSms {
  to: string;
  text: string;
}
export interface Mailer {
  send(message: OutboundEmail, tx?: DbOrTx): Promise<void>;
}
export interface SmsSender {
  send(message: OutboundSms, tx?: DbOrTx): Promise<void>;
}

export function createOutboxMailer(db: DbOrTx): Mailer {
  return {
    send: async (message, tx) => {
      await (tx ?? db).insert(devOutbox).values({ channel: 'email', recipient: message.to, subject: message.subject, body: message.text });
    },
  };
}

export function createOutboxSmsSender(db: DbOrTx): SmsSender {
  return {
    send: async (message, tx) => {
      await (tx ?? db).insert(devOutbox).values({ channel: 'sms', recipient: message.to, subject: 'SMS', body: message.text });
    },
  };
}
