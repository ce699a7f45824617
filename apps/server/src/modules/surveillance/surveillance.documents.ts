/**
 * Files of the alerts: the filtered list as CSV (RFC 4180, UTF-8 with a byte-order mark, formula-safe: a cell a
 * spreadsheet would run as a formula is prefixed with an apostrophe, the OWASP "CSV injection" guard, since alerts
 * quote chat text) and the **evidence pack** of one alert as a PDF (pdfkit, laid out like the contract note of
 * modules/orders: title, a red generated-by line, labelled sections): the alert, the numbers behind its score, the chat
 * excerpt, the quotes, the deal, ticket and orders, the audit entries, and the triage history. Times are IST.
 */
import PDFKitDocument from 'pdfkit';
import { readableFacts, SURVEILLANCE_EXPORT_COLUMNS, type SurveillanceAlert, type SurveillanceAlertDetail } from '@dart/contracts';

const IST_OFFSET_MS = 330 * 60_000;

/** `2025-08-21 14:05:09`: the instant in India Standard Time (UTC+05:30, no daylight saving). */
export function formatIst(at: Date | string): string {
  return new Date(new Date(at).getTime() + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The IST calendar day of an instant, `yyyy-mm-dd`. */
export const istDay = (at: Date): string => new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);

/** The first instant of an IST calendar day (`yyyy-mm-dd`), `plusDays` later. */
export function istDayStart(day: string, plusDays = 0): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + plusDays) - IST_OFFSET_MS);
}

/* ------------------------------------------------------------ CSV ------------------------------------------------------------ */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvRow = (cells: ReadonlyArray<string | number | null | undefined>) => `${cells.map(csvCell).join(',')}\r\n`;

export function alertsCsv(alerts: readonly SurveillanceAlert[]): string {
  let out = `\uFEFF${csvRow(SURVEILLANCE_EXPORT_COLUMNS)}`;
  for (const a of alerts)
    out += csvRow([
      formatIst(a.created_at),
      a.kind_label,
      a.score,
      a.status_label,
      a.assignee_name,
      a.title,
      a.summary,
      formatIst(a.occurred_at),
      a.id,
    ]);
  return out;
}

/* ------------------------------------------------------------ evidence pack ------------------------------------------------------------ */

const EVIDENCE_SECTIONS: Array<[string, ReadonlyArray<SurveillanceAlertDetail['evidence'][number]['type']>]> = [
  ['Chat excerpt', ['chat_message', 'chat_file']],
  ['Quotes', ['quote']],
  ['Deal, ticket and orders', ['deal', 'ticket', 'order']],
  ['Audit entries', ['audit']],
];

type Doc = InstanceType<typeof PDFKitDocument>;

function heading(doc: Doc, title: string): void {
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(11).fillColor('black').text(title, 50);
  doc
    .moveTo(50, doc.y + 2)
    .lineTo(545, doc.y + 2)
    .strokeColor('#999')
    .stroke();
  doc.moveDown(0.4);
}

function rows(doc: Doc, pairs: ReadonlyArray<[string, string]>): void {
  for (const [label, value] of pairs) {
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(9).text(label, 50, y, { width: 150 });
    const labelBottom = doc.y;
    doc.font('Helvetica').fontSize(9).text(value, 210, y, { width: 335 });
    doc.y = Math.max(doc.y, labelBottom);
    doc.moveDown(0.2);
  }
}

/** The standard PDF fonts draw WinAnsi only: anything else (₹, Indian scripts, emoji) is shown as "?". */
const printable = (text: string) => text.replace(/₹/g, 'Rs.').replace(/[^\x20-\x7e\xa0-\xff\n]/g, '?');

export interface EvidencePackData {
  alert: SurveillanceAlertDetail;
  firmName: string;
  productName: string;
  generatedAt: Date;
  generatedBy: string;
  /** The titles of the linked alerts (the ids mean nothing on paper). */
  linkedTitles: readonly string[];
}

export function renderEvidencePack(data: EvidencePackData): Promise<Buffer> {
  const a = data.alert;
  return new Promise((resolve, reject) => {
    const doc = new PDFKitDocument({
      size: 'A4',
      margin: 50,
      info: { Title: `Evidence pack ${a.id}`, Author: data.productName, Creator: data.productName, CreationDate: data.generatedAt },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.font('Helvetica-Bold').fontSize(18).text('SURVEILLANCE EVIDENCE PACK', { align: 'center' });
    doc
      .font('Helvetica')
      .fontSize(9)
      .text(printable(`${data.firmName}: compliance record, confidential`), { align: 'center' });
    doc
      .moveDown(0.3)
      .fillColor('#a33')
      .fontSize(8)
      .text(printable(`Generated by ${data.productName} for ${data.generatedBy} on ${formatIst(data.generatedAt)} IST.`), {
        align: 'center',
      });
    doc.fillColor('black');

    heading(doc, 'Alert');
    rows(doc, [
      ['Alert', printable(a.title)],
      ['Kind', a.kind_label],
      ['Score', `${a.score} / 100`],
      ['Status', a.status_label],
      ['Assignee', printable(a.assignee_name ?? 'Unassigned')],
      ['Occurred', `${formatIst(a.occurred_at)} IST`],
      ['Raised', `${formatIst(a.created_at)} IST`],
      ['Summary', printable(a.summary)],
      ['Linked alerts', data.linkedTitles.length > 0 ? printable(data.linkedTitles.join('; ')) : 'None'],
      ['Alert id', a.id],
    ]);
    const facts = readableFacts(a.facts);
    if (facts.length > 0) {
      heading(doc, 'Facts behind the score');
      rows(
        doc,
        facts.map(({ label, value }) => [label, printable(value)]),
      );
    }
    for (const [title, types] of EVIDENCE_SECTIONS) {
      const items = a.evidence.filter((item) => types.includes(item.type));
      heading(doc, title);
      if (items.length === 0) {
        doc.font('Helvetica-Oblique').fontSize(9).text('None.', 50);
        continue;
      }
      rows(
        doc,
        items.map((item) => [
          item.at ? `${formatIst(item.at)} IST` : item.type.replace('_', ' '),
          printable(`${item.excerpt} [${item.id}]`),
        ]),
      );
    }
    heading(doc, 'Triage history');
    if (a.history.length === 0) doc.font('Helvetica-Oblique').fontSize(9).text('No triage yet.', 50);
    else
      rows(
        doc,
        a.history.map((h) => [
          `${formatIst(h.at)} IST`,
          printable(
            `${h.action} by ${h.actor_name} (${h.from_status} -> ${h.to_status})${h.assignee_name ? `, to ${h.assignee_name}` : ''}${
              h.comment ? `: ${h.comment}` : ''
            }`,
          ),
        ]),
      );
    doc.end();
  });
}
