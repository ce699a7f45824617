/**
 * Counterparty quality for the Build Network panel (issue 15 §1, `GET api/network/stats/`): per firm the caller's
 * firm dealt with over the last 90 days, from the caller's own quotes, negotiations and deals only. The figures and
 * why each is defined so are in README.md ("Counterparty quality"). One SQL statement; every relation it reads is
 * narrowed to rows the caller's firm is a party to, so another firm's private activity never enters a figure.
 */
import { NETWORK_STATS_WINDOW_DAYS, type NetworkFirmStats, type NetworkStats } from '@dart/contracts';
import { sql } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';

const DAY_MS = 86_400_000;

interface StatsRow {
  client_id: string;
  name: string;
  is_broker: boolean;
  rfq_exchanges: string[];
  contact_user_id: string | null;
  contact_user_name: string | null;
  requests: number;
  answered: number;
  median_seconds: number | string | null;
  negotiations: number;
  accepted: number;
  quotes_held: number;
  quotes_pulled: number;
  deals: number;
  last_activity_at: Date | string;
}

/**
 * The statement. `asks` are the requests we put to a firm, each with when it was asked and when (if) they answered:
 * (a) our private runs and RFQs addressed to them, answered by their first response quote or their first counter on
 * it; (b) each counter of ours in a negotiation with them that our own next entry did not supersede, answered by
 * their next entry (counter, accept or reject). An ask still open (quote live, no answer yet) is left out: it has not
 * had its chance to be answered. Anything on an anonymous exchange RFQ is left out: neither side may know the other.
 */
export async function readNetworkStats(db: DbOrTx, clientId: string, since: Date, now: Date): Promise<StatsRow[]> {
  const c = sql`${clientId}::uuid`;
  const sinceAt = sql`${since.toISOString()}::timestamptz`;
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  return sqlRows<StatsRow>(
    db,
    sql`
WITH sent AS (
  SELECT q.id, q.created_at, q.status, q.expires_at, x AS other
    FROM quotes q CROSS JOIN LATERAL unnest(q.recipients) AS x
   WHERE q.client_id = ${c} AND q.respond_to IS NULL AND NOT q.rfq_anonymous AND q.created_at >= ${sinceAt} AND x <> ${c}
),
talks AS (
  SELECT n.status, n.history, n.updated_at,
         CASE WHEN n.quoter_client_id = ${c} THEN n.responder_client_id ELSE n.quoter_client_id END AS other,
         CASE WHEN n.quoter_client_id = ${c} THEN 'quoter' ELSE 'responder' END AS us,
         (q.status = 'open' AND q.expires_at > ${nowAt}) AS quote_live
    FROM negotiations n JOIN quotes q ON q.id = n.quote_id
   WHERE (n.quoter_client_id = ${c} OR n.responder_client_id = ${c}) AND NOT q.rfq_anonymous AND n.created_at >= ${sinceAt}
),
asks AS (
  SELECT s.other, s.created_at AS asked_at, a.answered_at, (s.status = 'open' AND s.expires_at > ${nowAt}) AS live
    FROM sent s
    CROSS JOIN LATERAL (
      SELECT LEAST(
        (SELECT min(r.created_at) FROM quotes r WHERE r.respond_to = s.id AND r.client_id = s.other),
        (SELECT min(n.created_at) FROM negotiations n WHERE n.quote_id = s.id AND n.responder_client_id = s.other)
      ) AS answered_at
    ) a
  UNION ALL
  SELECT t.other, (e.entry ->> 'at')::timestamptz, (t.history -> e.i::int ->> 'at')::timestamptz,
         (t.status = 'open' AND t.quote_live)
    FROM talks t CROSS JOIN LATERAL jsonb_array_elements(t.history) WITH ORDINALITY AS e(entry, i)
   WHERE e.entry ->> 'by_client' = t.us AND e.entry ->> 'action' = 'counter'
     AND COALESCE(t.history -> e.i::int ->> 'by_client', '') <> t.us
),
ask_stats AS (
  SELECT other,
         count(*) FILTER (WHERE answered_at IS NOT NULL OR NOT live)::int AS requests,
         count(*) FILTER (WHERE answered_at IS NOT NULL)::int AS answered,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM answered_at - asked_at)) AS median_seconds,
         max(COALESCE(answered_at, asked_at)) AS last_at
    FROM asks GROUP BY other
),
talk_stats AS (
  SELECT other,
         count(*) FILTER (WHERE status <> 'open' OR NOT quote_live)::int AS negotiations,
         count(*) FILTER (WHERE status = 'accepted')::int AS accepted,
         max(updated_at) AS last_at
    FROM talks GROUP BY other
),
theirs AS (
  SELECT q.client_id AS other,
         count(*) FILTER (WHERE q.status = 'filled' OR (q.status = 'expired' AND q.updated_at >= q.expires_at)
                             OR (q.status = 'open' AND q.expires_at <= ${nowAt}))::int AS quotes_held,
         count(*) FILTER (WHERE q.status IN ('closed', 'expired') AND q.updated_at < q.expires_at)::int AS quotes_pulled,
         max(q.created_at) AS last_at
    FROM quotes q
   WHERE ${c} = ANY(q.recipients) AND q.client_id <> ${c} AND NOT q.rfq_anonymous AND q.created_at >= ${sinceAt}
   GROUP BY q.client_id
),
dealt AS (
  SELECT CASE WHEN d.buyer_client_id = ${c} THEN d.seller_client_id ELSE d.buyer_client_id END AS other,
         count(*)::int AS deals, max(d.created_at) AS last_at
    FROM deals d
    LEFT JOIN negotiations n ON n.id = d.negotiation_id
    LEFT JOIN quotes q ON q.id = n.quote_id
   WHERE (d.buyer_client_id = ${c} OR d.seller_client_id = ${c}) AND d.created_at >= ${sinceAt}
     AND NOT COALESCE(q.rfq_anonymous, false)
   GROUP BY 1
),
firms AS (
  SELECT other FROM ask_stats UNION SELECT other FROM talk_stats UNION SELECT other FROM theirs UNION SELECT other FROM dealt
)
SELECT cl.id AS client_id, cl.name, cl.is_broker, cl.rfq_exchanges,
       contact.user_id AS contact_user_id, contact.user_name AS contact_user_name,
       COALESCE(a.requests, 0) AS requests, COALESCE(a.answered, 0) AS answered, a.median_seconds,
       COALESCE(t.negotiations, 0) AS negotiations, COALESCE(t.accepted, 0) AS accepted,
       COALESCE(h.quotes_held, 0) AS quotes_held, COALESCE(h.quotes_pulled, 0) AS quotes_pulled,
       COALESCE(d.deals, 0) AS deals,
       GREATEST(a.last_at, t.last_at, h.last_at, d.last_at) AS last_activity_at
  FROM firms f
  JOIN clients cl ON cl.id = f.other
  LEFT JOIN ask_stats a ON a.other = f.other
  LEFT JOIN talk_stats t ON t.other = f.other
  LEFT JOIN theirs h ON h.other = f.other
  LEFT JOIN dealt d ON d.other = f.other
  LEFT JOIN LATERAL (
    SELECT u.id AS user_id, u.first_name || ' ' || u.last_name AS user_name
      FROM user_accounts ua
      JOIN users u ON u.id = ua.user_id
      JOIN user_account_permissions p ON p.user_account_id = ua.id AND p.permission = 'client.can_trade'
     WHERE ua.client_id = cl.id AND ua.status = 'active' AND u.is_active
     ORDER BY lower(u.first_name || ' ' || u.last_name), u.id
     LIMIT 1
  ) contact ON true
 WHERE f.other IS NOT NULL AND f.other <> ${c}
 ORDER BY COALESCE(d.deals, 0) DESC, lower(cl.name), cl.id`,
  );
}

/** The rate rounded to 4 decimals (a ratio 0..1), or null when there was nothing to measure. */
const ratio = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

export function createNetworkStats(deps: AppDeps) {
  return {
    async stats(p: Principal): Promise<NetworkStats> {
      const now = deps.now();
      const since = new Date(now.getTime() - NETWORK_STATS_WINDOW_DAYS * DAY_MS);
      const rows = await readNetworkStats(deps.database.db, p.clientId, since, now);
      const results: NetworkFirmStats[] = rows.map((r) => ({
        client_id: r.client_id,
        name: r.name,
        is_broker: r.is_broker,
        rfq_exchanges: r.rfq_exchanges,
        contact: r.contact_user_id ? { user_id: r.contact_user_id, user_name: r.contact_user_name ?? '' } : null,
        requests: Number(r.requests),
        answered: Number(r.answered),
        response_rate: ratio(Number(r.answered), Number(r.requests)),
        median_response_seconds: r.median_seconds === null ? null : Math.round(Number(r.median_seconds) * 10) / 10,
        negotiations: Number(r.negotiations),
        hit_rate: ratio(Number(r.accepted), Number(r.negotiations)),
        quotes_held: Number(r.quotes_held),
        quotes_pulled: Number(r.quotes_pulled),
        deals: Number(r.deals),
        last_activity_at: new Date(r.last_activity_at).toISOString(),
      }));
      return { window_days: NETWORK_STATS_WINDOW_DAYS, since: since.toISOString(), results, count: results.length };
    },
  };
}
export type NetworkStatsReader = ReturnType<typeof createNetworkStats>;
