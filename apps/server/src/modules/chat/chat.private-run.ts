/**
 * A private run sent into a chat (contract: PRIVATE_RUN_* in packages/contracts/src/chat.ts). The
 * client names a quote (`data.quote_id`); this builds the message the server stores instead of what
 * the client sent: the card in `data.private_run` and the text, both read from our database, after
 * checking that the quote is the sender's firm's, private, open, and addressed to every other firm
 * among the channel's current members (invitees included: they read the channel too), so every member
 * may see what the card shows.
 */
import {
  faceValuePerBond,
  formatFaceValue,
  formatSizeWithBonds,
  PRIVATE_RUN_MESSAGES,
  PrivateRunSendDataSchema,
  type PrivateRunCard,
} from '@dart/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { fieldError } from '../../lib/errors';

const FIELD = 'data.quote_id';

const percent = (fraction: number) => `${(fraction * 100).toFixed(4)}%`;
/** Face value with its bond count (`₹5 Cr · 5,00,000 bonds`); a card from before issue 12 has no bond size. */
const size = (card: PrivateRunCard) =>
  card.face_value_per_bond ? formatSizeWithBonds(card.quantum, card.face_value_per_bond) : formatFaceValue(card.quantum);

/** The text every client shows for the card (and what the compliance export keeps). */
export function privateRunText(card: PrivateRunCard): string {
  const side = card.quote_type === 'BID' ? 'Bid' : 'Ask';
  return `Private run: ${side} ${card.display_name} (${card.isin}) at ${percent(card.yield_stored)}, price ${card.unit_price_stored.toFixed(4)}, ${size(card)}, settlement ${card.settlement_date}`;
}

export async function privateRunMessage(
  db: DbOrTx,
  sender: { clientId: string },
  otherFirmIds: readonly string[],
  data: unknown,
): Promise<{ message: string; data: { private_run: PrivateRunCard } }> {
  const parsed = PrivateRunSendDataSchema.safeParse(data);
  if (!parsed.success) throw fieldError(FIELD, parsed.error.issues[0]?.message ?? PRIVATE_RUN_MESSAGES.notFound);
  if (otherFirmIds.length === 0) throw fieldError(FIELD, PRIVATE_RUN_MESSAGES.noOtherFirm);
  const result = (await db.execute(
    sql`SELECT q.id, q.client_id, q.recipients, q.status, q.quote_type, q.finstrument_id, q.yield_fraction, q.price,
               q.remaining_quantum, to_char(q.settlement_date, 'YYYY-MM-DD') AS settlement_date, q.expires_at, f.isin, f.display_name,
               f.security_type, f.face_value
          FROM quotes q JOIN finstruments f ON f.id = q.finstrument_id
         WHERE q.id = ${parsed.data.quote_id}::uuid`,
  )) as unknown as { rows?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>;
  const row = (Array.isArray(result) ? result : (result.rows ?? []))[0];
  // Another firm's quote answers like a missing one: its existence does not leak.
  if (!row || String(row.client_id) !== sender.clientId) throw fieldError(FIELD, PRIVATE_RUN_MESSAGES.notFound);
  const recipients = (row.recipients as string[] | null) ?? null;
  if (!recipients || recipients.length === 0) throw fieldError(FIELD, PRIVATE_RUN_MESSAGES.notPrivate);
  if (row.status !== 'open') throw fieldError(FIELD, PRIVATE_RUN_MESSAGES.notOpen);
  if (otherFirmIds.some((id) => !recipients.includes(id))) throw fieldError(FIELD, PRIVATE_RUN_MESSAGES.notAddressed);
  const card: PrivateRunCard = {
    quote_id: String(row.id),
    quote_type: row.quote_type === 'ASK' ? 'ASK' : 'BID',
    finstrument_id: Number(row.finstrument_id),
    isin: String(row.isin),
    display_name: String(row.display_name),
    yield_stored: Math.round(Number(row.yield_fraction) * 1e6) / 1e6,
    unit_price_stored: Math.round(Number(row.price) * 1e4) / 1e4,
    quantum: Number(row.remaining_quantum),
    face_value_per_bond: faceValuePerBond({
      security_type: String(row.security_type),
      face_value: row.face_value === null || row.face_value === undefined ? null : Number(row.face_value),
    }),
    settlement_date: String(row.settlement_date),
    expiry_date_stored: new Date(row.expires_at as string | Date).toISOString(),
  };
  return { message: privateRunText(card), data: { private_run: card } };
}
