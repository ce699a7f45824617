/**
 * What the simulated trade reporting platform and clearing corporation share with the SimulatedExchange: the
 * shared database (the venue's book), this node's connection to the venue (latency, injected failures before
 * the venue acts, answers lost after it acted) and the venue's one number sequence.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import type { ExchangeName } from './exchange.gateway';
import { ExchangeUnavailableError } from './exchange.gateway';

/** The DVP-I leg that fell short at pay-in: `funds` (the buyer's) or `securities` (the seller's). */
export type PayinShortage = 'funds' | 'securities';

/** The trade the clearing corporation is about to settle (what a test hook sees). */
export interface SettlementInstruction {
  tradeId: string;
  exchange: ExchangeName;
  ticketId: string;
  isin: string;
  quantum: number;
  settlementDate: string;
  /** The members paying funds (buyer) and delivering securities (seller), with their custodians. */
  buyer: string;
  seller: string;
  buyerCustodian: string | null;
  sellerCustodian: string | null;
  /** 1 on the first pay-in, 2 on the retry after a failure… */
  payinRun: number;
}

/** The options of the post-trade venue (part of `SimulatedExchangeOptions`). */
export interface SimulatedPostTradeOptions {
  /** 0..1: the share of pay-ins that fail (half for funds, half for securities). Default 0. */
  settlementFailureRate?: number;
  /**
   * Decides a pay-in deterministically (tests): a shortage fails it, `null` settles it, `undefined` leaves
   * it to `settlementFailureRate`.
   */
  settlementOutcome?: ((trade: SettlementInstruction) => PayinShortage | null | undefined) | undefined;
  /**
   * 0..1: the share of post-trade calls whose answer is lost after the venue acted (the report is held, the
   * settlement ran…), so the caller sees ExchangeUnavailableError and must ask again. Default 0.
   */
  answerLossRate?: number;
}

export interface VenueLink {
  readonly db: Db;
  now(): number;
  random(): number;
  settleMs(): number;
  postTrade(): SimulatedPostTradeOptions;
  /** This node's connection: latency, then an injected failure (the venue did nothing). */
  call(exchange: ExchangeName, what: string): Promise<void>;
  /** The venue acted; its answer may still be lost on the way back (injected). */
  answer<T>(exchange: ExchangeName, what: string, value: T): T;
  /** The venue's next number (`NSE-RPT-000012`, `BSE-TRD-000013`): one sequence for every node. */
  number(executor: DbOrTx, exchange: ExchangeName, kind: 'RPT' | 'TRD'): Promise<string>;
}

/**
 * The venue's next number as an SQL expression (`NSE-RPT-000012`: the one sequence, at least six digits), for a
 * statement that takes its number itself (an insert, a match); `venueNumber` takes one on its own.
 */
export const venueNumberSql = (exchange: ExchangeName, kind: string): SQL =>
  sql`(SELECT ${venueNumberOf(exchange, kind, sql`seq.n`)} FROM (SELECT nextval('exchange_sim_seq')::text AS n) AS seq)`;

/**
 * `NSE-TRD-` and the sequence's value `n` (text) in at least six digits: the format of every venue number. `n` is
 * read twice: a column or a value taken already, never `nextval` itself.
 */
export const venueNumberOf = (exchange: ExchangeName, kind: string, n: SQL): SQL =>
  sql`${`${exchange}-${kind}-`} || lpad(${n}, greatest(6, length(${n})), '0')`;

export async function venueNumber(executor: DbOrTx, exchange: ExchangeName, kind: string): Promise<string> {
  const result = (await executor.execute(sql`SELECT ${venueNumberSql(exchange, kind)} AS ref`)) as unknown as {
    rows: Array<{ ref: string }>;
  };
  return result.rows[0]!.ref;
}

/** Serialises the venue's work on one ticket (both sides' reports, the trade, its cancellation) across nodes. */
export async function lockTicketAtVenue(executor: DbOrTx, ticketId: string): Promise<void> {
  await lockTicketsAtVenue(executor, [ticketId]);
}

/**
 * The same locks for several tickets in one statement, taken in the order of their keys: two batches sharing
 * tickets wait for each other instead of deadlocking, and one ticket's holder touches no other ticket's rows.
 */
export async function lockTicketsAtVenue(executor: DbOrTx, ticketIds: readonly string[]): Promise<void> {
  await executor.execute(
    sql`SELECT pg_advisory_xact_lock(k) FROM (
          SELECT DISTINCT hashtextextended('exchange-sim:' || t, 0) AS k FROM unnest(${pgArray(ticketIds)}::text[]) AS t ORDER BY k) AS keys`,
  );
}

export function lostAnswer(link: Pick<VenueLink, 'postTrade' | 'random'>, exchange: ExchangeName, what: string): void {
  const rate = link.postTrade().answerLossRate ?? 0;
  if (rate > 0 && link.random() < rate)
    throw new ExchangeUnavailableError(`${exchange} (simulated) took ${what} but its answer was lost: injected failure`);
}
