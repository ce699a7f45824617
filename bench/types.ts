/** Shared shape of benchmark results and the table printer. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The target from the issue, when there is one. */
  target?: number;
  /** The baseline measured side by side (or a published reference); the ratio is value / baseline. */
  baseline?: number;
  note?: string;
}

const fmt = (n: number) => (Math.abs(n) >= 1000 ? Math.round(n).toLocaleString('en-IN') : n.toFixed(n < 10 ? 3 : 1));

export function printTable(results: BenchResult[]): void {
  const rows = results.map((r) => [
    r.name,
    `${fmt(r.value)} ${r.unit}`,
    r.baseline !== undefined ? `${fmt(r.baseline)} ${r.unit}` : '',
    r.baseline ? `${(r.value / r.baseline).toFixed(2)}x` : '',
    r.target !== undefined ? `${fmt(r.target)} ${r.unit}` : '',
    r.note ?? '',
  ]);
  const header = ['benchmark', 'value', 'baseline', 'ratio', 'target', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) console.log(line(row));
}
