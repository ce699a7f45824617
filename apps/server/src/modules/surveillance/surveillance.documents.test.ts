import type { SurveillanceAlert } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { alertsCsv, csvCell, formatIst, istDayStart } from './surveillance.documents';

const alert: SurveillanceAlert = {
  id: '6f1c0a52-9a43-4f55-9a5e-1f7f2b0d1e11',
  kind: 'chat_lexicon',
  kind_label: 'Chat lexicon',
  score: 85,
  status: 'open',
  status_label: 'Open',
  assignee_id: null,
  assignee_name: null,
  title: '=HYPERLINK("http://x.example","click")',
  summary: 'A message in "Desk, Mumbai" uses "kickback".',
  occurred_at: '2026-11-27T05:00:00.000Z',
  created_at: '2026-11-27T05:00:01.000Z',
  updated_at: '2026-11-27T05:00:01.000Z',
};

describe('alert CSV', () => {
  it('prefixes a cell a spreadsheet would run as a formula and quotes commas and quotes', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
  });

  it('writes a byte-order mark, the header and one CRLF row per alert with IST times', () => {
    const text = alertsCsv([alert]);
    expect(text.startsWith('\uFEFFRaised (IST),Kind,Score,')).toBe(true);
    const [, row] = text.slice(1).split('\r\n');
    expect(row).toBe(
      `2026-11-27 10:30:01,Chat lexicon,85,Open,,"'=HYPERLINK(""http://x.example"",""click"")","A message in ""Desk, Mumbai"" uses ""kickback"".",2026-11-27 10:30:00,${alert.id}`,
    );
  });

  it('reads IST days and times (UTC+05:30)', () => {
    expect(formatIst('2026-11-27T18:40:00.000Z')).toBe('2026-11-28 00:10:00');
    expect(istDayStart('2026-11-28').toISOString()).toBe('2026-11-27T18:30:00.000Z');
    expect(istDayStart('2026-11-28', 1).toISOString()).toBe('2026-11-28T18:30:00.000Z');
  });
});
