/**
 * Day counts by name, for presets (data) and the CLI.
 */
import type { DayCount, DayCountName } from './day-count';
import { THIRTY_E_360 } from './thirty-e-360';
import { THIRTY_360_BOND_BASIS } from './thirty-360-bond-basis';
import { ACTUAL_365_FIXED } from './actual-365-fixed';
import { ACTUAL_360 } from './actual-360';
import { ACTUAL_ACTUAL_ISDA } from './actual-actual-isda';
import { ACTUAL_ACTUAL_ICMA } from './actual-actual-icma';
import type { SebiLeapYearRule } from './actual-365-366-sebi';
import { ACTUAL_365_366_SEBI, createSebiActualDayCount } from './actual-365-366-sebi';
import { BondMathError } from '../errors';

/** Every supported day-count name. */
export const DAY_COUNT_NAMES: readonly DayCountName[] = [
  '30E/360',
  '30/360',
  'ACT/365F',
  'ACT/360',
  'ACT/ACT-ISDA',
  'ACT/ACT-ICMA',
  'ACT/365-366-SEBI',
];

/**
 * Looks up a day count by name.
 * @param name - one of {@link DAY_COUNT_NAMES}.
 * @param sebiLeapYearRule - leap-year window for `ACT/365-366-SEBI` (ignored otherwise).
 * @throws BondMathError INVALID_ARGUMENT for an unknown name.
 */
export function getDayCount(name: DayCountName, sebiLeapYearRule?: SebiLeapYearRule): DayCount {
  switch (name) {
    case '30E/360':
      return THIRTY_E_360;
    case '30/360':
      return THIRTY_360_BOND_BASIS;
    case 'ACT/365F':
      return ACTUAL_365_FIXED;
    case 'ACT/360':
      return ACTUAL_360;
    case 'ACT/ACT-ISDA':
      return ACTUAL_ACTUAL_ISDA;
    case 'ACT/ACT-ICMA':
      return ACTUAL_ACTUAL_ICMA;
    case 'ACT/365-366-SEBI':
      return sebiLeapYearRule && sebiLeapYearRule !== 'year-ending-on-due-date'
        ? createSebiActualDayCount(sebiLeapYearRule)
        : ACTUAL_365_366_SEBI;
    default:
      throw new BondMathError(
        'INVALID_ARGUMENT',
        `dayCount: unknown day count ${JSON.stringify(name)}; expected one of ${DAY_COUNT_NAMES.join(', ')}`,
        'dayCount',
      );
  }
}
