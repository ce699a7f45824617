import { describe, expect, it } from 'vitest';
import type { FinstrumentListRow } from '../api/list-finstruments';
import { findExportTable } from './find-export';

/** The fields the export reads, from a real G-sec (7.26% GS 2033). */
const gsec = (reference_source: string | null) =>
  ({
    identifiers: { ISIN: 'IN0020220151' },
    display_name: '7.26% GS 2033',
    issuer_name: 'Government of India',
    security_type: 'G-Sec',
    coupon_rate: 7.26,
    contract_parameters: { maturity_date: '2033-02-06', is_listed: true },
    credit_rating: 'SOVEREIGN',
    bond_yield: 0.065612,
    reference_source,
    face_value: 100,
    exchanges: ['NSE', 'BSE'],
    is_matured: false,
  }) as unknown as FinstrumentListRow;

describe('findExportTable', () => {
  it('writes the yield source in words, never the internal code', () => {
    const table = findExportTable([gsec('MF_VALUATION'), gsec('NSE_CM_CLOSE'), gsec(null)]);
    const column = table.columns.indexOf('Yield source');
    expect(table.rows.map((row) => row[column])).toEqual(['Mutual-fund valuation', expect.any(String), null]);
    expect(JSON.stringify(table.rows)).not.toMatch(/MF_VALUATION|NSE_CM_CLOSE/);
  });

  it('keeps one cell per column with the yield in percent', () => {
    const [row] = findExportTable([gsec('MATRIX')]).rows;
    expect(row).toHaveLength(findExportTable([]).columns.length);
    expect(row![0]).toBe('IN0020220151');
    expect(row![findExportTable([]).columns.indexOf('Yield %')]).toBe(6.5612);
  });
});
