/**
 * Indian settlement holidays (data, not code): weekdays on which NSE / NSE Clearing
 * do not trade or settle debt deals. Replace or extend at run time with
 * {@link createHolidayCalendar} when the exchange publishes its circular.
 *
 * Sources and confidence, per year:
 * - 2025: NSE circular NSE/CMTR/65587 (13 Dec 2024), "Trading holidays for the
 *   calendar year 2025". Typed from that circular's table as remembered, NOT
 *   re-read from the PDF for this build: verify before go-live.
 * - 2026: NSE circular of Dec 2025 "Trading holidays for the calendar year 2026"
 *   as reproduced by https://www.stocktrack.co.in/2026/01/nse-trading-holidays-2026.html ,
 *   plus 15-Jan-2026 (Maharashtra municipal elections, NSE circular CMTR72260,
 *   https://nsearchives.nseindia.com/content/circulars/CMTR72260.pdf ).
 * - 2027: NOT YET PUBLISHED when this table was written. Only the fixed-date
 *   national holidays that fall on weekdays are listed (Republic Day, Ambedkar
 *   Jayanti); the lunar-calendar festivals (Holi, Id, Diwali …) are missing.
 *   Load the official list when it appears.
 *
 * Uncertain: RBI (NDS-OM/CCIL G-sec settlement) follows the Mumbai holidays
 * under the Negotiable Instruments Act, which usually but not always match
 * NSE's list (e.g. bank-only closures such as 1 April annual closing are not
 * exchange trading holidays). They are not included here.
 */
import type { HolidayEntry, HolidayCalendar } from './holiday-calendar';
import { createHolidayCalendar } from './holiday-calendar';

/** NSE trading/settlement holidays on weekdays, 2025–2027 (see file comment for sources). */
export const INDIA_SETTLEMENT_HOLIDAYS: readonly HolidayEntry[] = [
  // 2025 — NSE/CMTR/65587 (verify)
  { date: '2025-02-26', description: 'Mahashivratri' },
  { date: '2025-03-14', description: 'Holi' },
  { date: '2025-03-31', description: 'Id-Ul-Fitr (Ramadan Eid)' },
  { date: '2025-04-10', description: 'Shri Mahavir Jayanti' },
  { date: '2025-04-14', description: 'Dr. Baba Saheb Ambedkar Jayanti' },
  { date: '2025-04-18', description: 'Good Friday' },
  { date: '2025-05-01', description: 'Maharashtra Day' },
  { date: '2025-08-15', description: 'Independence Day' },
  { date: '2025-08-27', description: 'Ganesh Chaturthi' },
  { date: '2025-10-02', description: 'Mahatma Gandhi Jayanti / Dussehra' },
  { date: '2025-10-21', description: 'Diwali Laxmi Pujan (Muhurat trading only)' },
  { date: '2025-10-22', description: 'Diwali Balipratipada' },
  { date: '2025-11-05', description: 'Prakash Gurpurb Sri Guru Nanak Dev' },
  { date: '2025-12-25', description: 'Christmas' },
  // 2026 — NSE circular Dec 2025 (via stocktrack.co.in) + CMTR72260
  { date: '2026-01-15', description: 'Municipal Corporation Election - Maharashtra' },
  { date: '2026-01-26', description: 'Republic Day' },
  { date: '2026-03-03', description: 'Holi' },
  { date: '2026-03-26', description: 'Shri Ram Navami' },
  { date: '2026-03-31', description: 'Shri Mahavir Jayanti' },
  { date: '2026-04-03', description: 'Good Friday' },
  { date: '2026-04-14', description: 'Dr. Baba Saheb Ambedkar Jayanti' },
  { date: '2026-05-01', description: 'Maharashtra Day' },
  { date: '2026-05-28', description: 'Bakri Id' },
  { date: '2026-06-26', description: 'Muharram' },
  { date: '2026-09-14', description: 'Ganesh Chaturthi' },
  { date: '2026-10-02', description: 'Mahatma Gandhi Jayanti' },
  { date: '2026-10-20', description: 'Dussehra' },
  { date: '2026-11-10', description: 'Diwali Balipratipada' },
  { date: '2026-11-24', description: 'Prakash Gurpurb Sri Guru Nanak Dev' },
  { date: '2026-12-25', description: 'Christmas' },
  // 2027 — PROVISIONAL: fixed-date national holidays on weekdays only (list not yet published)
  { date: '2027-01-26', description: 'Republic Day (provisional)' },
  { date: '2027-04-14', description: 'Dr. Baba Saheb Ambedkar Jayanti (provisional)' },
];

/**
 * Indian settlement calendar: Saturday/Sunday plus {@link INDIA_SETTLEMENT_HOLIDAYS}.
 * Used to roll T+n settlement and coupon/maturity payment dates.
 */
export const INDIA_SETTLEMENT_CALENDAR: HolidayCalendar = createHolidayCalendar('IN-NSE-SETTLEMENT', INDIA_SETTLEMENT_HOLIDAYS);
