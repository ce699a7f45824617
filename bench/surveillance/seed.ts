/**
 * Seeds the surveillance benchmark's data set straight into the tables the scanner reads (set-based
 * `INSERT … SELECT generate_series`, one connection of its own): `FIRMS` bench firms with `USERS` dealers each,
 * `CHANNELS` two-firm desk chats, `messages` chat messages over 20 days (ordinary dealer talk, 0.5% lexicon hits,
 * 2.5% naming a real bond's ISIN), `quotes` quotes (placed, expired, filled, replaced, pulled; 1% off-market, spoof
 * clusters of four pulled quotes), `deals` deals (a fifth of them following an ISIN mention between the same two
 * firms, 1% off-market, 0.5% reversed within the hour), one ticket per deal (0.2% re-priced off-market), two orders
 * per ticket (1% reported late, 0.3% never reported) and two audit rows per ticket. Bonds: live bonds of the imported
 * reference data with a reference yield.
 *
 * Every hit is placed by a rule of its index (`i % 200 = 17` …), so the expected alert counts are known exactly.
 */
import pg from 'pg';

export const FIRMS = 20;
export const USERS = 5;
export const CHANNELS = 400;
/** The seeded span ends two days ago: every trade is older than the 15-minute rule and within the 30-day look-back. */
const SPAN_DAYS = 20;

/** Lexicon phrases the benchmark plants (one per hit, in turn). */
export const LEXICON_LINES = [
  'ye pakka return hai boss, tension mat lo',
  'can we do some parking till quarter end',
  'we keep this off the books for now',
  'rest will be cash mein, as discussed',
  'setting kar do, I will call you',
  'cut milega on this one, same as last time',
  'buy before the client order comes in, order aane se pehle',
  'window dressing for March, buy back later',
];

/** Ordinary dealer talk: settlement, cash settlement, "setting up" — near misses of the lexicon on purpose. */
const PLAIN_LINES = [
  'Bid 7.80 for 5 cr, settlement T+1 at NSCCL',
  'Offer at 7.62, can do 10 cr, T+1',
  'what is your level on the 2033 paper?',
  'done, sending the ticket now',
  'cash settlement as usual through ICCL',
  'setting up a call with treasury at 3',
  'pls confirm consideration, our ops is waiting',
  'any axe in PSU 3 year?',
  'market looks soft after the auction',
  'can you improve by 2 bp?',
  'ok done at 7.71 for 25 cr',
  'let me check with the desk and revert',
  'is the rating watch still on for this issuer?',
  'thanks, reported on NSE RFQ',
  'morning, need 50 cr AAA 5 year, any offers?',
  'book closing, will revert tomorrow',
  'RBI policy today, quoting wide till then',
  'settlement instructions updated on our side',
  'pls share the deal slip',
  'what size can you show at 7.65?',
];

export interface SeedCounts {
  bonds: number;
  messages: number;
  lexiconMessages: number;
  isinMentions: number;
  quotes: number;
  deals: number;
  tickets: number;
  orders: number;
  auditRows: number;
  seedMs: number;
}

const literal = (lines: readonly string[]) => `ARRAY[${lines.map((l) => `'${l.replace(/'/g, "''")}'`).join(',')}]::text[]`;

/** Seeds everything; returns the row counts. `url` is the throwaway database (migrated, bonds imported). */
export async function seedSurveillanceData(url: string, size: { messages: number; quotes: number; deals: number }): Promise<SeedCounts> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = async (text: string) => (await client.query(text)).rowCount ?? 0;
  const M = size.messages;
  const Q = size.quotes;
  // Wash reversals are added on top of the `deals` first legs: 1 in 200.
  const D = size.deals - Math.floor(size.deals / 200);
  try {
    await q(`SET statement_timeout = 0`);
    await q(`CREATE TEMP TABLE bb AS
      SELECT (row_number() OVER (ORDER BY id) - 1)::int AS k, id, isin, reference_yield
      FROM finstruments
      WHERE reference_yield IS NOT NULL AND (maturity_date IS NULL OR maturity_date > current_date + 30)
      ORDER BY id LIMIT 400`);
    const bonds = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM bb')).rows[0]!.n);
    if (bonds === 0) throw new Error('no live bonds with a reference yield imported');
    await q(`CREATE TEMP TABLE span AS SELECT now() - interval '${SPAN_DAYS + 2} days' AS t0, interval '${SPAN_DAYS} days' AS len`);

    // Firms, dealers, accounts.
    await q(`CREATE TEMP TABLE bf AS SELECT g AS k, gen_random_uuid() AS id FROM generate_series(0, ${FIRMS - 1}) g`);
    await q(
      `INSERT INTO clients (id, name, client_type, tier) SELECT id, 'Bench Firm ' || lpad(k::text, 2, '0'), 'BANK', 'PREMIUM' FROM bf`,
    );
    await q(`CREATE TEMP TABLE bu AS
      SELECT f.k AS fk, u AS uk, gen_random_uuid() AS id, gen_random_uuid() AS account_id, f.id AS client_id
      FROM bf f CROSS JOIN generate_series(0, ${USERS - 1}) u`);
    await q(`CREATE UNIQUE INDEX ON bu (fk, uk)`);
    await q(`INSERT INTO users (id, unique_id, email, first_name, last_name)
      SELECT id, 'bench-' || id, 'dealer' || uk || '@firm' || fk || '.bench', 'Dealer', 'F' || fk || 'U' || uk FROM bu`);
    await q(`INSERT INTO user_accounts (id, user_id, client_id) SELECT account_id, id, client_id FROM bu`);

    // Two-firm desk chats: firms fa and fb (never equal), one dealer of each.
    await q(`CREATE TEMP TABLE bc AS
      SELECT c AS k, gen_random_uuid() AS id, c % ${FIRMS} AS fa, (c % ${FIRMS} + 1 + (c / ${FIRMS}) % ${FIRMS - 1}) % ${FIRMS} AS fb,
             (c / ${FIRMS}) % ${USERS} AS ua, (c / ${FIRMS} + 1) % ${USERS} AS ub
      FROM generate_series(0, ${CHANNELS - 1}) c`);
    await q(`ALTER TABLE bc ADD COLUMN a_user uuid, ADD COLUMN b_user uuid, ADD COLUMN a_firm uuid, ADD COLUMN b_firm uuid`);
    await q(`UPDATE bc SET a_user = ua_.id, a_firm = ua_.client_id, b_user = ub_.id, b_firm = ub_.client_id
      FROM bu ua_, bu ub_ WHERE ua_.fk = bc.fa AND ua_.uk = bc.ua AND ub_.fk = bc.fb AND ub_.uk = bc.ub`);
    await q(`INSERT INTO chat_channels (id, url, custom_type, name) SELECT id, 'bench_' || k, 'group', 'Desk ' || k FROM bc`);
    await q(`INSERT INTO chat_members (channel_id, user_id, state, joined_at)
      SELECT id, a_user, 'joined', (SELECT t0 FROM span) FROM bc UNION ALL SELECT id, b_user, 'joined', (SELECT t0 FROM span) FROM bc`);

    // Messages: channel i % C, position i / C + 1, sender alternating, times spread evenly over the span.
    await q(`INSERT INTO chat_messages (channel_id, position, sender_id, message_type, message, created_at)
      SELECT c.id, i / ${CHANNELS} + 1, CASE WHEN (i / ${CHANNELS}) % 2 = 0 THEN c.a_user ELSE c.b_user END, 'user',
             CASE
               WHEN i % 200 = 17 THEN (${literal(LEXICON_LINES)})[1 + (i / 200) % ${LEXICON_LINES.length}]
               WHEN i % 40 = 3 THEN 'looking at ' || b.isin || ' around ' || round((b.reference_yield * 100)::numeric, 2) || ', can do ' || (5 + i % 20) || ' cr'
               ELSE (${literal(PLAIN_LINES)})[1 + (i * 13 + i / 7) % ${PLAIN_LINES.length}]
             END,
             s.t0 + s.len * (i::float8 / ${M})
      FROM generate_series(0, ${M - 1}) i
      CROSS JOIN span s
      JOIN bc c ON c.k = i % ${CHANNELS}
      JOIN bb b ON b.k = (i * 7) % ${bonds}`);
    const lexiconMessages = Number(
      (await client.query<{ n: string }>(`SELECT count(*) AS n FROM generate_series(0, ${M - 1}) i WHERE i % 200 = 17`)).rows[0]!.n,
    );
    const isinMentions = Number(
      (await client.query<{ n: string }>(`SELECT count(*) AS n FROM generate_series(0, ${M - 1}) i WHERE i % 200 <> 17 AND i % 40 = 3`))
        .rows[0]!.n,
    );

    // Quotes: firm q % F; blocks of four (q / 4); one block in 100 is a spoof cluster (same firm and bond, placed
    // 20 s apart, each pulled after 4 s untouched). Others: expired, filled, closed after 30 min, replaced after 2 min.
    await q(`INSERT INTO quotes (client_id, user_id, user_account_id, finstrument_id, quote_type, quantum, remaining_quantum, price,
                                 yield_fraction, fixed_field, yield_type, settlement_date, validity_minutes, expires_at, source, state,
                                 status, created_at, updated_at)
      SELECT u.client_id, u.id, u.account_id, b.id, CASE WHEN q % 2 = 0 THEN 'BID' ELSE 'ASK' END, 5000000 * (1 + q % 10),
             CASE WHEN spoof OR q % 10 NOT IN (6, 7) THEN 5000000 * (1 + q % 10) ELSE 0 END,
             100 - (q % 50) * 0.1,
             b.reference_yield + CASE WHEN q % 100 = 37 THEN 0.02 ELSE ((q * 7919) % 21 - 10) / 100000.0 END,
             'yield', 'YTM', (placed + interval '1 day')::date, 60, placed + interval '60 minutes', 'manual', 'FIRM',
             CASE WHEN spoof THEN 'closed' WHEN q % 10 IN (6, 7) THEN 'filled' WHEN q % 10 = 8 THEN 'closed' WHEN q % 10 = 9 THEN 'replaced' ELSE 'expired' END,
             placed,
             placed + CASE WHEN spoof THEN interval '4 seconds' WHEN q % 10 IN (6, 7) THEN interval '10 minutes'
                           WHEN q % 10 = 8 THEN interval '30 minutes' WHEN q % 10 = 9 THEN interval '2 minutes' ELSE interval '60 minutes' END
      FROM (
        SELECT q, (q / 4) % 100 = 0 AS spoof,
               s.t0 + s.len * ((q / 4) * 4)::float8 / ${Q} + CASE WHEN (q / 4) % 100 = 0 THEN (q % 4) * interval '20 seconds' ELSE (q % 4) * interval '97 seconds' END AS placed,
               CASE WHEN (q / 4) % 100 = 0 THEN (q / 4) % ${FIRMS} ELSE q % ${FIRMS} END AS fk,
               CASE WHEN (q / 4) % 100 = 0 THEN (q / 4 * 3) % ${bonds} ELSE (q * 11) % ${bonds} END AS bk
        FROM generate_series(0, ${Q - 1}) q CROSS JOIN span s
      ) g
      JOIN bu u ON u.fk = g.fk AND u.uk = g.q % ${USERS}
      JOIN bb b ON b.k = g.bk`);

    // Deals: one in five follows an ISIN mention (the mention's channel's two firms, its bond, 1–20 h later); the
    // others between a channel's firms on another bond. j % 100 = 50: off-market (+250 bp). Every 200th gets a reversal.
    await q(`CREATE TEMP TABLE bd AS
      SELECT j, gen_random_uuid() AS id, b.id AS finstrument_id, b.reference_yield,
             CASE WHEN j % 2 = 0 THEN c.a_firm ELSE c.b_firm END AS buyer, CASE WHEN j % 2 = 0 THEN c.b_firm ELSE c.a_firm END AS seller,
             CASE WHEN j % 2 = 0 THEN c.a_user ELSE c.b_user END AS buyer_user, CASE WHEN j % 2 = 0 THEN c.b_user ELSE c.a_user END AS seller_user,
             b.reference_yield + CASE WHEN j % 100 = 50 THEN 0.025 ELSE ((j * 7919) % 21 - 10) / 100000.0 END AS yield_fraction,
             5000000 * (1 + j % 10) AS quantum,
             CASE WHEN j % 5 = 0 THEN s.t0 + s.len * (m.i::float8 / ${M}) + (1 + j % 20) * interval '1 hour'
                  ELSE s.t0 + s.len * (j::float8 / ${D}) END AS created_at
      FROM generate_series(0, ${D - 1}) j
      CROSS JOIN span s
      -- the ISIN mention a deal follows: message index 40 n + 3 (n = j / 5, wrapping), skipping lexicon slots
      CROSS JOIN LATERAL (SELECT (40 * ((j / 5) % greatest(1, ${M} / 40)) + 3) AS i) m
      JOIN bc c ON c.k = CASE WHEN j % 5 = 0 THEN m.i % ${CHANNELS} ELSE (j * 17) % ${CHANNELS} END
      JOIN bb b ON b.k = CASE WHEN j % 5 = 0 THEN (m.i * 7) % ${bonds} ELSE (j * 11 + 5) % ${bonds} END`);
    await q(`INSERT INTO bd SELECT ${D} + j, gen_random_uuid(), finstrument_id, reference_yield, seller, buyer, seller_user, buyer_user,
                                   yield_fraction, quantum, created_at + interval '30 minutes'
             FROM bd WHERE j % 200 = 0`);
    await q(`INSERT INTO deals (id, finstrument_id, buyer_client_id, seller_client_id, buyer_user_id, seller_user_id, price, yield_fraction,
                                quantum, settlement_date, consideration, created_at)
      SELECT id, finstrument_id, buyer, seller, buyer_user, seller_user, 100 - (j % 50) * 0.1, yield_fraction, quantum,
             (created_at + interval '1 day')::date, quantum * (100 - (j % 50) * 0.1) / 100, created_at
      FROM bd`);
    await q(`INSERT INTO tickets (id, deal_id, source, state, finstrument_id, buyer_client_id, buyer_user_id, seller_client_id, seller_user_id,
                                  price, yield_fraction, quantum, settlement_date, exchange, clearing_corporation, accrued_days,
                                  principal_paise, accrued_interest_paise, consideration_paise, stamp_duty_paise, traded_at, confirmed_at,
                                  created_at, updated_at)
      SELECT id, id, 'deal', 'confirmed', finstrument_id, buyer, buyer_user, seller, seller_user, 100 - (j % 50) * 0.1,
             yield_fraction + CASE WHEN j % 500 = 250 THEN 0.03 ELSE 0 END, quantum, (created_at + interval '1 day')::date, 'NSE', 'NSCCL', 0,
             (quantum * (100 - (j % 50) * 0.1))::bigint, 0, (quantum * (100 - (j % 50) * 0.1))::bigint, 0,
             created_at, created_at + interval '1 minute', created_at, created_at + interval '1 minute'
      FROM bd`);
    // Orders: reported after 3 min; 1 in 100 after 25 min (late); 3 in 1,000 never (missing).
    await q(`INSERT INTO orders (kind, ticket_id, client_id, user_id, counterparty_client_id, state, finstrument_id, exchange,
                                 clearing_corporation, price, yield_fraction, quantum, settlement_date, trade_date, accrued_days,
                                 principal_paise, accrued_interest_paise, consideration_paise, stamp_duty_paise, traded_at, reported_at,
                                 created_at, updated_at)
      SELECT side.kind, d.id, CASE WHEN side.kind = 'procurement' THEN d.buyer ELSE d.seller END,
             CASE WHEN side.kind = 'procurement' THEN d.buyer_user ELSE d.seller_user END,
             CASE WHEN side.kind = 'procurement' THEN d.seller ELSE d.buyer END,
             CASE WHEN d.j % 1000 IN (7, 507, 907) THEN 'confirmed' ELSE 'reported' END, d.finstrument_id, 'NSE', 'NSCCL',
             100 - (d.j % 50) * 0.1, d.yield_fraction, d.quantum, (d.created_at + interval '1 day')::date, d.created_at::date, 0,
             (d.quantum * (100 - (d.j % 50) * 0.1))::bigint, 0, (d.quantum * (100 - (d.j % 50) * 0.1))::bigint, 0, d.created_at,
             CASE WHEN d.j % 1000 IN (7, 507, 907) THEN NULL
                  WHEN d.j % 100 = 13 THEN d.created_at + interval '25 minutes' ELSE d.created_at + interval '3 minutes' END,
             d.created_at + interval '1 minute', d.created_at + interval '3 minutes'
      FROM bd d CROSS JOIN (VALUES ('order'), ('procurement')) AS side(kind)`);
    const auditRows =
      await q(`INSERT INTO audit_log (at, actor_user_id, actor_client_id, actor_email, actor_roles, action, entity, entity_id, hash)
      SELECT d.created_at + interval '1 minute', side.u, side.f, 'bench@dealer', ARRAY['user'], 'ticket.accepted', 'ticket', d.id::text, md5(d.id::text || side.f::text)
      FROM bd d CROSS JOIN LATERAL (VALUES (d.buyer_user, d.buyer), (d.seller_user, d.seller)) AS side(u, f)`);
    const count = async (table: string) => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
    const counts = {
      bonds,
      messages: await count('chat_messages'),
      lexiconMessages,
      isinMentions,
      quotes: await count('quotes'),
      deals: await count('deals'),
      tickets: await count('tickets'),
      orders: await count('orders'),
      auditRows,
    };
    await q('VACUUM ANALYZE');
    return { ...counts, seedMs: performance.now() - started };
  } finally {
    await client.end();
  }
}
