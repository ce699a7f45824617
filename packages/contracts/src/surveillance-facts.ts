/**
 * The facts behind an alert's score in words, as the alert drawer and the evidence-pack PDF both show them: labels
 * for the facts the rules write, yields as percentages, basis points, yes/no, and ids left out (the evidence items
 * show what they point at).
 */
import type { SurveillanceAlertDetail } from './surveillance';

const FACT_LABELS: Record<string, string> = {
  isin: 'ISIN',
  yield: 'Yield',
  reference_yield: 'Reference yield',
  deviation_bp: 'Deviation',
  band_bp: 'Band',
  rating_group: 'Rating group',
  order: 'Order',
  exchange: 'Exchange',
  missing: 'Not reported',
  minutes_late: 'Minutes late',
  state: 'State',
  terms: 'Phrases matched',
  categories: 'Categories',
  messages: 'Messages naming the bond',
  minutes_before_deal: 'Minutes before the deal',
  pulled_quotes: 'Quotes pulled',
};

/** Facts that are ids: they mean nothing to a reader (the evidence items show what they point at). */
const HIDDEN_FACT = /(^|_)id$|^(first|second)_deal$/;

const words = (key: string) => {
  const text = key.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

function factValue(key: string, value: string | number | boolean | null): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') {
    if (key === 'yield' || key === 'reference_yield') return `${(value * 100).toFixed(4)}%`;
    if (key.endsWith('_bp')) return `${value} bp`;
    return value.toLocaleString('en-IN');
  }
  return value;
}

/** The facts behind the score as label and value, in words (ids left out). */
export function readableFacts(facts: SurveillanceAlertDetail['facts']): Array<{ key: string; label: string; value: string }> {
  return Object.entries(facts)
    .filter(([key]) => !HIDDEN_FACT.test(key))
    .map(([key, value]) => ({ key, label: FACT_LABELS[key] ?? words(key), value: factValue(key, value) }));
}
