/** The rows of the Find export (CSV / XLSX): every value as a user reads it, no internal codes. */
import { priceSourceLabel } from '@dart/contracts';
import type { FinstrumentListRow } from '../api/list-finstruments';
import type { ExportTable } from './table-export';

export function findExportTable(rows: FinstrumentListRow[]): ExportTable {
  return {
    columns: [
      'ISIN',
      'Bond',
      'Issuer',
      'Type',
      'Coupon %',
      'Maturity',
      'Rating',
      'Yield %',
      'Yield source',
      'Face value (₹)',
      'Listed',
      'Exchanges',
      'Matured',
    ],
    rows: rows.map((row) => [
      row.identifiers.ISIN,
      row.display_name,
      row.issuer_name,
      row.security_type,
      row.coupon_rate,
      row.contract_parameters.maturity_date,
      row.credit_rating,
      row.bond_yield === null ? null : Number((row.bond_yield * 100).toFixed(4)),
      row.reference_source ? priceSourceLabel(row.reference_source) : null,
      row.face_value,
      row.contract_parameters.is_listed ? 'Yes' : 'No',
      row.exchanges.join(' '),
      row.is_matured ? 'Yes' : 'No',
    ]),
  };
}
