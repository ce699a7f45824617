/**
 * Link previews (ogMetaData) of Dart's own links, built from our database: a bond
 * (`/security/{ISIN}`, or `/find…?isin={ISIN}`) or a public quote (`/quote/{id}` or `?quote_id={id}`).
 * No URL is ever fetched. Only the path is kept (`url` is relative), so a preview always opens
 * Dart's own page even when the link was typed with another host.
 */
import { faceValuePerBond, formatSizeWithBonds, type ChatMessage } from '@dart/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

type OgMetaData = NonNullable<ChatMessage['ogMetaData']>;

const LINK = /(?:https?:\/\/[^\s/]+)?(\/(?:security|find|product\/find|quote|dart)[^\s]*)/gi;
const ISIN = /^IN[A-Z0-9]{9}[0-9]$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Target = { kind: 'bond'; isin: string; path: string } | { kind: 'quote'; id: string; path: string };

export function findDartLink(text: string): Target | null {
  for (const match of text.matchAll(LINK)) {
    let parsed: URL;
    try {
      parsed = new URL(match[1]!.replace(/[),.;!?]+$/, ''), 'http://dart.local');
    } catch {
      continue;
    }
    const segments = parsed.pathname.split('/').filter(Boolean);
    const path = `${parsed.pathname}${parsed.search}`;
    if (segments[0] === 'security' && segments[1] && ISIN.test(segments[1].toUpperCase()))
      return { kind: 'bond', isin: segments[1].toUpperCase(), path };
    if (segments[0] === 'quote' && segments[1] && UUID.test(segments[1])) return { kind: 'quote', id: segments[1].toLowerCase(), path };
    const quoteId = parsed.searchParams.get('quote_id') ?? parsed.searchParams.get('quote');
    if (quoteId && UUID.test(quoteId)) return { kind: 'quote', id: quoteId.toLowerCase(), path };
    const isin = parsed.searchParams.get('isin')?.toUpperCase();
    if (segments.includes('find') && isin && ISIN.test(isin)) return { kind: 'bond', isin, path };
  }
  return null;
}

const percent = (fraction: number | null | undefined, dp = 2) =>
  fraction === null || fraction === undefined ? null : `${(fraction * 100).toFixed(dp)}%`;

/** The preview of the first Dart link in `text`, or null (unknown bond, private or missing quote). */
export async function buildOgMetaData(db: DbOrTx, text: string): Promise<OgMetaData | null> {
  const target = findDartLink(text);
  if (!target) return null;
  if (target.kind === 'bond') {
    const rows = (
      (await db.execute(
        sql`SELECT isin, display_name, coupon_rate, to_char(maturity_date, 'YYYY-MM-DD') AS maturity_date, credit_rating, rating_agency FROM finstruments WHERE isin = ${target.isin}`,
      )) as unknown as { rows: Array<Record<string, unknown>> }
    ).rows;
    const bond = rows[0];
    if (!bond) return null;
    const parts = [
      String(bond.isin),
      bond.coupon_rate !== null ? `Coupon ${percent(Number(bond.coupon_rate))}` : null,
      bond.maturity_date ? `Maturity ${String(bond.maturity_date).slice(0, 10)}` : null,
      bond.credit_rating ? `${String(bond.credit_rating)}${bond.rating_agency ? ` (${String(bond.rating_agency)})` : ''}` : null,
    ].filter(Boolean);
    return { url: target.path, title: String(bond.display_name), description: parts.join(' · '), kind: 'bond' };
  }
  // Only public quotes (no recipients) get a preview, and never with the quoting firm: a preview is
  // seen by every member of the channel, whatever their firm.
  const rows = (
    (await db.execute(
      sql`SELECT q.quote_type, q.quantum, q.price, q.yield_fraction, q.status, to_char(q.settlement_date, 'YYYY-MM-DD') AS settlement_date, f.isin, f.display_name,
                 f.security_type, f.face_value
            FROM quotes q JOIN finstruments f ON f.id = q.finstrument_id
           WHERE q.id = ${target.id} AND q.recipients IS NULL`,
    )) as unknown as { rows: Array<Record<string, unknown>> }
  ).rows;
  const quote = rows[0];
  if (!quote) return null;
  return {
    url: target.path,
    title: `${String(quote.quote_type)} ${String(quote.display_name)}`,
    description: [
      String(quote.isin),
      `Yield ${percent(Number(quote.yield_fraction), 4)}`,
      `Price ${Number(quote.price).toFixed(4)}`,
      // Face value in rupees with its bond count (issue 12 §1).
      `Size ${formatSizeWithBonds(Number(quote.quantum), faceValuePerBond({ security_type: String(quote.security_type), face_value: quote.face_value === null ? null : Number(quote.face_value) }))}`,
      `Settlement ${String(quote.settlement_date).slice(0, 10)}`,
      String(quote.status),
    ].join(' · '),
    kind: 'quote',
  };
}
