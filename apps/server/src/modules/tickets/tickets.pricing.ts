/**
 * A ticket's consideration, from bond-math only (through the finstruments service, as the market prices a
 * deal): principal = clean price × face value ÷ 100, accrued interest to the settlement date, consideration =
 * principal + accrued, stamp duty 0.0001 % of the consideration on the buyer (nil on G-secs, SDLs and T-bills),
 * all in integer paise. Pricing reads the database, so it runs BEFORE the write transaction (PGlite has one
 * connection); the transaction then checks that the ticket's version is still the one priced.
 */
import type { ConsiderationDetails } from '@dart/contracts';
import { AppError } from '../../lib/errors';
import type { FinstrumentRow, FinstrumentsService } from '../finstruments';
import { assertSize, perBondOf } from '../market';
import type { BondTerms } from './tickets.repository';

/** The ticket columns pricing sets. */
export interface TicketPricing {
  price: number;
  yieldFraction: number;
  quantum: number;
  settlementDate: string;
  accruedDays: number;
  principalPaise: number;
  accruedInterestPaise: number;
  considerationPaise: number;
  stampDutyPaise: number;
}

/** Rupees with paise (as bond-math's integer paise ÷ 100) back to integer paise. */
export const toPaise = (rupees: number): number => Math.round(rupees * 100);

/** The columns from bond-math's consideration (rupees to the paisa) of a deal or a price call. */
export function pricingFromConsideration(
  details: Pick<ConsiderationDetails, 'accrued_days' | 'principal' | 'accrued_interest' | 'consideration' | 'stamp_duty'>,
  terms: { price: number; yieldFraction: number; quantum: number; settlementDate: string },
): TicketPricing {
  return {
    ...terms,
    accruedDays: details.accrued_days,
    principalPaise: toPaise(details.principal),
    accruedInterestPaise: toPaise(details.accrued_interest),
    considerationPaise: toPaise(details.consideration),
    stampDutyPaise: toPaise(details.stamp_duty),
  };
}

export function createTicketPricing(finstruments: FinstrumentsService) {
  /**
   * Prices `quantum` (face value in ₹, whole bonds) of a bond at a clean price or a yield, settling on a date
   * or T+n (default T+1). Refuses a size that is not whole bonds (400 on `quantum`) and a bond that cannot be
   * priced.
   */
  async function price(
    bond: BondTerms,
    input: {
      quantum: number;
      price?: number | undefined;
      yield?: number | undefined;
      settlementDate?: string | undefined;
      settlementDelta?: 0 | 1 | 2 | undefined;
    },
    /** The bond's whole row when the caller has read it: priced from it, not read again (nor its reference price). */
    row?: FinstrumentRow | null,
  ): Promise<TicketPricing> {
    assertSize(input.quantum, bond);
    const perBond = perBondOf(bond);
    const settlement = input.settlementDate ? { settlement_date: input.settlementDate } : { settlement_delta: input.settlementDelta ?? 1 };
    const quantity = input.quantum / perBond;
    const info =
      row && input.price !== undefined
        ? await finstruments.priceRow(row, { price: input.price, ...settlement, quantity })
        : row && input.yield !== undefined
          ? await finstruments.priceRow(row, { yield: input.yield, ...settlement, quantity })
          : await finstruments.price(String(bond.id), {
              ...(input.price !== undefined ? { price: input.price } : { yield: input.yield }),
              ...settlement,
              quantity,
            });
    const details = info.consideration_details;
    if (info.price.unit_clean_price === null || info.price.bond_yield === null || info.price.settlement_date === null || !details)
      throw new AppError('BAD_REQUEST', `This bond cannot be priced. ${info.not_priceable_reason ?? ''}`.trim());
    return pricingFromConsideration(details, {
      price: info.price.unit_clean_price,
      yieldFraction: info.price.bond_yield,
      quantum: input.quantum,
      settlementDate: info.price.settlement_date,
    });
  }
  return { price };
}
export type TicketPricer = ReturnType<typeof createTicketPricing>;
