/**
 * `ExchangeGateway`: Dart's side of an exchange (NSE settling at NSCCL, BSE at ICCL), in two parts:
 * - the **RFQ platform**: the market service calls it before it stores an exchange RFQ, a response or a counter
 *   (a refusal stores nothing; a store that fails afterwards cancels it again), and after a deal on an exchange
 *   RFQ to report that deal (`reportDeal`), which the venue hands to its clearing corporation under the trade
 *   number; its settlement status is polled (`settlementStatus`);
 * - the **trade reporting platform and clearing corporation** (issue 13): each side of a confirmed OTC ticket
 *   reports its terms (`reportTrade`); when both sides' reports agree the venue matches them into a trade, which
 *   the clearing corporation settles DVP-I (`settlementsOf`, `retrySettlement`, `cancelTrade`).
 * `SimulatedExchange` is the local stand-in; a real exchange connection implements the same interface.
 */
export type ExchangeName = 'NSE' | 'BSE';
export type RfqMode = 'ONE_TO_ONE' | 'ONE_TO_MANY';

export interface RfqSubmission {
  exchange: ExchangeName;
  mode: RfqMode;
  anonymous: boolean;
  isin: string;
  side: 'BID' | 'ASK';
  quantum: number;
  price: number;
  yieldFraction: number;
  settlementDate: string;
  /** When the RFQ stops taking responses. */
  validUntil: Date;
  /** ONE_TO_ONE: the one participant it is addressed to (Dart client id). */
  counterparty?: string | undefined;
}

export interface RfqResponseSubmission {
  exchange: ExchangeName;
  /** The venue's number of the RFQ answered. */
  rfqRef: string;
  price: number;
  yieldFraction: number;
  quantum: number;
}

export interface DealReport {
  exchange: ExchangeName;
  dealId: string;
  rfqRef: string | null;
  isin: string;
  price: number;
  yieldFraction: number;
  quantum: number;
  settlementDate: string;
  consideration: number;
  /**
   * What the clearing corporation settles the deal with: the RFQ platform hands its trade to NSCCL / ICCL
   * under its own trade number, as the reporting platform hands a matched OTC trade. Without it (an older
   * caller) the venue settles the trade on its delay alone and nothing can fail, retry or cancel it.
   */
  clearing?: RfqTradeClearing | undefined;
}

export interface RfqTradeClearing {
  /** The trade's reference at the clearing corporation: Dart's ticket of the deal (its deal id if it has none). */
  ticketId: string;
  /** The members paying funds (buyer) and delivering securities (seller): Dart client ids. */
  buyer: string;
  seller: string;
  considerationPaise: number;
  stampDutyPaise: number;
}

/** An RFQ trade at its clearing corporation; `cancelled` only when a member cancelled it there before pay-in. */
export type SettlementStatus = 'pending' | 'settled' | 'failed' | 'cancelled';

/** The terms and money of one side's report, as the member computed them (bond-math; money in integer paise). */
export interface ReportedTerms {
  quantum: number;
  /** Clean price per ₹100. */
  price: number;
  yieldFraction: number;
  settlementDate: string;
  accruedDays: number;
  principalPaise: number;
  accruedInterestPaise: number;
  considerationPaise: number;
  stampDutyPaise: number;
}

/**
 * One side's report of an OTC trade to the trade reporting platform (NSE or BSE). Both sides quote the same
 * ticket id; the venue keeps one report per ticket and side.
 */
export interface TradeSideReport extends ReportedTerms {
  exchange: ExchangeName;
  /** The common reference of the trade both sides quote (Dart's ticket id). */
  ticketId: string;
  /** `sell`: the seller's report (Dart's order); `buy`: the buyer's (Dart's procurement order). */
  side: 'buy' | 'sell';
  /** The reporting member (Dart client id) and the counterparty it names. */
  member: string;
  counterparty: string;
  isin: string;
  /** The member's custodian (settles its leg of the DVP-I). */
  custodian: string | null;
  /**
   * The member's revision of its report (increasing with each modify). The venue keeps the highest: a lower one
   * (a stale copy arriving late) changes nothing and gets the current answer.
   */
  revision: number;
}

/**
 * The venue's answer to a report, always the current state of that side's report, so a repeated report (a retry
 * after a lost answer, a second node) gets the first one's answer and never a second trade:
 * `pending` (the other side has not reported yet), `matched` (a trade, with its number and the terms matched),
 * `refused` (the two reports differ: the reason names the fields), `cancelled` (the trade was cancelled).
 */
export type TradeReportAnswer =
  | { status: 'pending'; ref: string }
  | { status: 'matched'; ref: string; tradeId: string; terms: ReportedTerms }
  | { status: 'refused'; ref: string; reason: string }
  | { status: 'cancelled'; ref: string; reason: string | null };

export type TradeSettlementStatus = 'pending' | 'settled' | 'failed' | 'cancelled';

/** A matched trade at its clearing corporation (DVP-I: funds from the buyer, securities from the seller). */
export interface TradeSettlement {
  tradeId: string;
  exchange: ExchangeName;
  clearingCorporation: 'NSCCL' | 'ICCL';
  ticketId: string;
  settlementDate: string;
  status: TradeSettlementStatus;
  /** Why the pay-in failed (`SETTLEMENT_FAILURE_REASONS`) or the trade was cancelled. */
  reason: string | null;
  buyerCustodian: string | null;
  sellerCustodian: string | null;
  /** Pay-in runs so far: one per attempt (a retry after a failure is the second). */
  payinRuns: number;
  settledAt: Date | null;
}

export interface ExchangeGateway {
  /** Identifies the implementation in logs and health output. */
  readonly name: string;
  /** Places an RFQ on the venue; returns the venue's RFQ number. */
  publishRfq(rfq: RfqSubmission): Promise<{ ref: string }>;
  /** A quote in response to an RFQ, or a counter in its negotiation; returns the venue's number. */
  respond(response: RfqResponseSubmission): Promise<{ ref: string }>;
  /**
   * Undoes an RFQ (publishRfq's ref: cancelled) or a response/counter (respond's ref: withdrawn) that
   * Dart could not store after the venue accepted it (compensation). Unknown refs are a no-op.
   */
  cancel(request: { exchange: ExchangeName; ref: string }): Promise<void>;
  /**
   * Reports an accepted RFQ deal; returns the venue's trade number. The venue hands the trade to its clearing
   * corporation under that number (`report.clearing`): from then on `settlementsOf`, `retrySettlement` and
   * `cancelTrade` reach it like a matched OTC trade, and `settlementStatus` answers from the same record.
   */
  reportDeal(report: DealReport): Promise<{ tradeId: string }>;
  /** Settlement status of a reported trade at the clearing corporation (NSCCL / ICCL). */
  settlementStatus(exchange: ExchangeName, tradeId: string): Promise<SettlementStatus>;

  /** Reports one side of a confirmed OTC trade; the answer is that side's report as the venue now holds it. */
  reportTrade(report: TradeSideReport): Promise<TradeReportAnswer>;
  /**
   * Reports several sides to one exchange in one call (the reporter's batch: a member's bulk upload), every
   * report kept by the same rules as `reportTrade`; the answers are in the reports' order, each that side's report
   * as the venue holds it after the batch (both sides of a trade in one batch: `matched`). A failed call failed
   * for every report in it.
   */
  reportTrades(exchange: ExchangeName, reports: readonly TradeSideReport[]): Promise<TradeReportAnswer[]>;
  /**
   * Trades at one clearing corporation, in one query (the settlement job's poll: a member's bulk status query),
   * in the ids' order; null for a trade it does not know. On or after a trade's settlement time its pay-in runs
   * (once). A failed call failed for every trade in it.
   */
  settlementsOf(exchange: ExchangeName, tradeIds: readonly string[]): Promise<Array<TradeSettlement | null>>;
  /** Runs a failed trade's settlement again (a new pay-in); any other state is returned as it is. */
  retrySettlement(exchange: ExchangeName, tradeId: string): Promise<TradeSettlement>;
  /**
   * Cancels a ticket's reports and its trade before settlement. Answers `settled` (nothing cancelled) when the
   * trade has settled already; cancelling twice is a no-op.
   */
  cancelTrade(request: { exchange: ExchangeName; ticketId: string; reason: string }): Promise<{ status: 'cancelled' | 'settled' }>;
}

/** The venue refused or did not answer (simulated failures included); nothing was stored. */
export class ExchangeUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExchangeUnavailableError';
  }
}
