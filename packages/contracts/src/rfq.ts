/**
 * Raising exchange RFQs from Dart (issue 12 §3): the spec's payload fields on `POST api/trade/eoi/`
 * (`send_to_rfq`, `rfq_mode`, `oto_participant_details`, `clearing_corporation`) and the raiser's view of
 * its own RFQs with the responses they drew (`GET api/eoi/my-rfqs/`, our addition: spec §7 names none).
 *
 * A response is a negotiation on the RFQ: every participant's answer (a response quote through
 * `POST api/eoi/add/` with `respond_to`, or a counter through `POST api/eoi/add-negotiation/`) is the
 * latest counter in that participant's negotiation, so the raiser accepts it with the existing
 * `POST api/eoi/add-negotiation/` `{quote_id, negotiation_id, action: "accept"}` (deal → exchange report).
 */
import { z } from 'zod';
import { NEGOTIATION_STATUSES, QuoteSchema } from './market';
import { MESSAGES } from './validation';

/** The spec's RFQ modes and how the ticket names them (NSE RFQ's own words: one-to-one, one-to-many). */
export const RFQ_MODE_LABELS = { ONE_TO_ONE: 'One to one (OTO)', ONE_TO_MANY: 'One to many (OTM)' } as const;

/**
 * `oto_participant_details` of a one-to-one RFQ: the one participant it goes to. Participants are the
 * firms on Dart enabled for RFQs on the exchange (`GET api/chatter/search-trade-participants` with
 * `for_rfq=true&exchange=`), the simulated venue's participants among them; `client_id` is the firm,
 * the rest is what the picker showed (kept with the quote as given).
 */
export const OtoParticipantDetailsSchema = z.object({
  client_id: z.uuid({ error: 'Choose a participant.' }),
  name: z.string().max(200).nullish(),
  user_id: z.string().max(100).nullish(),
  nsccl_code: z.string().max(200).nullish(),
  iccl_code: z.string().max(200).nullish(),
});
export type OtoParticipantDetails = z.infer<typeof OtoParticipantDetailsSchema>;

export const RFQ_MESSAGES = {
  /** A one-to-one RFQ without its participant (spec §5's required message). */
  otoParticipantRequired: MESSAGES.required,
  otoParticipantMismatch: 'The participant and the counterparty of a one-to-one RFQ should be the same firm.',
  otoParticipantNotEnabled: 'This participant is not enabled for RFQs on this exchange.',
  /** Accepting a response whose validity ended (or that its participant withdrew). */
  responseNotOpen: 'This response is no longer open.',
} as const;

/** How long the simulated participants' responses stand (minutes; never past the RFQ's own end). */
export const SIMULATED_RESPONSE_VALIDITY_MINUTES = 5;
/** `GET api/eoi/my-rfqs/`: the firm's open RFQs and those that ended within this many hours, newest first. */
export const MY_RFQS_RECENT_HOURS = 24;
export const MY_RFQS_MAX = 50;

/**
 * One participant's answer to the caller's RFQ as the raiser sees it: its negotiation and the latest
 * terms (a response or a counter). `valid_until`: the response quote's expiry when the latest terms are a
 * response, else the RFQ's. `can_accept`: open, the participant spoke last, and the terms still stand.
 */
export const MyRfqResponseSchema = z.object({
  negotiation_id: z.uuid(),
  status: z.enum(NEGOTIATION_STATUSES),
  /** The participant's firm, or `Anonymous NSE RFQ participant` on an anonymous RFQ. */
  participant: z.string(),
  last_by: z.enum(['quoter', 'responder']),
  unit_price_stored: z.number(),
  yield_stored: z.number(),
  quantum: z.number(),
  at: z.string(),
  valid_until: z.string(),
  response_id: z.string().nullable(),
  can_accept: z.boolean(),
  deal_id: z.string().nullable(),
});
export type MyRfqResponse = z.infer<typeof MyRfqResponseSchema>;

export const MyRfqSchema = QuoteSchema.extend({ responses: z.array(MyRfqResponseSchema) });
export type MyRfq = z.infer<typeof MyRfqSchema>;
export const MyRfqListSchema = z.object({
  results: z.array(MyRfqSchema),
  /** Present (and results empty) when the caller has no trade access. */
  restriction_text: z.string().nullable(),
});
export type MyRfqList = z.infer<typeof MyRfqListSchema>;
