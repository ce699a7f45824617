/**
 * `ExchangeGateway`: Dart's side of an exchange RFQ venue (NSE RFQ settling at NSCCL, BSE RFQ at ICCL).
 * The market service calls it before it stores an exchange RFQ, a response or a counter (a refusal
 * stores nothing; a store that fails afterwards cancels it again), and after a deal on an exchange RFQ to report the trade; settlement status is polled.
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
}

export type SettlementStatus = 'pending' | 'settled' | 'failed';

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
  /** Reports an accepted RFQ deal; returns the venue's trade number. */
  reportDeal(report: DealReport): Promise<{ tradeId: string }>;
  /** Settlement status of a reported trade at the clearing corporation (NSCCL / ICCL). */
  settlementStatus(exchange: ExchangeName, tradeId: string): Promise<SettlementStatus>;
}

/** The venue refused or did not answer (simulated failures included); nothing was stored. */
export class ExchangeUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExchangeUnavailableError';
  }
}
