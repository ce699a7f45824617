/**
 * Files of the transactions blotter: the filtered list as CSV (formula-safe: a cell a spreadsheet would run as
 * a formula is prefixed with an apostrophe, the OWASP "CSV injection" guard) or XLSX, and the **contract note**
 * of one trade as a PDF in the Indian format (trade and settlement dates, ISIN, face value, clean price, yield,
 * accrued days and interest, stamp duty, consideration, the two counterparties with their clearing codes and
 * custodians, the exchange, its clearing corporation and trade number, DVP-I). The standard PDF fonts have no
 * ₹ glyph, so amounts read "Rs." with Indian digit grouping.
 */
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import PDFKitDocument from 'pdfkit';
import { formatIndianNumber, ORDER_KIND_LABELS, type Order } from '@dart/contracts';

export interface ContractNoteParty {
  name: string;
  /** The firm's member / participant code at the trade's clearing corporation. */
  clearingCode: string | null;
  dealer: string | null;
  custodian: string | null;
}

export interface ContractNoteData {
  order: Order;
  tradedAt: Date;
  securityType: string;
  faceValuePerBond: number;
  seller: ContractNoteParty;
  buyer: ContractNoteParty;
  productName: string;
  generatedAt: Date;
}

const IST_OFFSET_MS = 330 * 60_000;
/** `2025-08-21 14:05:09 IST`. */
const istDateTime = (at: Date) => `${new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ')} IST`;
/** `21-08-2025`: dates as Indian documents write them. */
const indianDate = (iso: string) => {
  const [year, month, day] = iso.split('-');
  return `${day}-${month}-${year}`;
};
const rs = (rupees: number) => `Rs. ${formatIndianNumber(rupees, 2)}`;
const pct = (fraction: number) => `${(fraction * 100).toFixed(4)}%`;

/* ---------------------------------------------------------------- blotter export ---------------------------------------------------------------- */

const COLUMNS: Array<[string, (o: Order) => string | number | null]> = [
  ['Number', (o) => o.number],
  ['Kind', (o) => ORDER_KIND_LABELS[o.kind]],
  ['Ticket', (o) => o.ticket_number],
  ['State', (o) => o.state_label],
  ['Reported order status', (o) => o.reported_order_status],
  ['ISIN', (o) => o.isin],
  ['Bond', (o) => o.bond_name],
  ['Buy/Sell', (o) => o.buy_or_sell],
  ['Counterparty', (o) => o.counterparty_name],
  ['Face value (Rs.)', (o) => o.quantum],
  ['Bonds', (o) => o.consideration.bonds],
  ['Clean price', (o) => o.price],
  ['Yield (%)', (o) => Number((o.yield * 100).toFixed(4))],
  ['Accrued days', (o) => o.consideration.accrued_days],
  ['Accrued interest (Rs.)', (o) => o.consideration.accrued_interest],
  ['Consideration (Rs.)', (o) => o.consideration.consideration],
  ['Stamp duty (Rs.)', (o) => o.consideration.stamp_duty],
  ['Trade date', (o) => o.trade_date],
  ['Settlement date', (o) => o.settlement_date],
  ['Exchange', (o) => o.exchange],
  ['Clearing corporation', (o) => o.clearing_corporation],
  ['Custodian', (o) => o.custodian_name],
  ['Exchange trade id', (o) => o.exchange_trade_id],
  ['Reason', (o) => o.reason],
  ['Reported at', (o) => o.reported_at],
  ['Settled at', (o) => o.settled_at],
];

/** UTF-8 with a byte-order mark (spreadsheets then read ₹ and Indian scripts right), CRLF rows. */
export function ordersCsv(rows: readonly Order[]): string {
  const data = rows.map((o) => COLUMNS.map(([, cell]) => cell(o) ?? ''));
  return `\uFEFF${Papa.unparse({ fields: COLUMNS.map(([name]) => name), data }, { escapeFormulae: true, newline: '\r\n' })}\r\n`;
}

export async function ordersXlsx(rows: readonly Order[], productName: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = productName;
  const sheet = workbook.addWorksheet('Transactions', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map(([header]) => ({ header, width: Math.max(12, header.length + 2) }));
  sheet.getRow(1).font = { bold: true };
  // Text cells that look like formulas are written as text values, never as formulas: exceljs only writes a
  // formula when given { formula }, so plain strings are safe.
  for (const o of rows) sheet.addRow(COLUMNS.map(([, cell]) => cell(o)));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/* ---------------------------------------------------------------- contract note ---------------------------------------------------------------- */

function section(doc: PDFKit.PDFDocument, title: string, rows: Array<[string, string]>): void {
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(11).fillColor('#1f3a5f').text(title, 50);
  doc
    .moveTo(50, doc.y + 2)
    .lineTo(545, doc.y + 2)
    .strokeColor('#1f3a5f')
    .lineWidth(0.5)
    .stroke();
  doc.moveDown(0.4).fillColor('black').fontSize(9.5);
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('Helvetica-Bold').text(label, 50, y, { width: 190 });
    const labelBottom = doc.y;
    doc.font('Helvetica').text(value, 250, y, { width: 295 });
    doc.y = Math.max(doc.y, labelBottom);
    doc.moveDown(0.15);
  }
}

const partyRows = (role: string, p: ContractNoteParty, clearing: string): Array<[string, string]> => [
  [role, p.name],
  [`${clearing} participant code`, p.clearingCode ?? 'Not on file'],
  ['Dealer', p.dealer ?? '-'],
  ['Custodian', p.custodian ?? 'Not named'],
];

/** The contract note of one side of a reported trade, as that side's firm issues it to its books. */
export function renderContractNote(data: ContractNoteData): Promise<Buffer> {
  const o = data.order;
  const c = o.consideration;
  const seller = o.kind === 'order';
  return new Promise((resolve, reject) => {
    const doc = new PDFKitDocument({
      size: 'A4',
      margin: 50,
      info: { Title: `Contract note ${o.number}`, Author: data.productName, Creator: data.productName, CreationDate: data.generatedAt },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.font('Helvetica-Bold').fontSize(18).text('CONTRACT NOTE', { align: 'center' });
    doc
      .font('Helvetica')
      .fontSize(9)
      .text(`OTC trade in debt securities reported on the ${o.exchange} reporting platform, settled DVP-I at ${o.clearing_corporation}`, {
        align: 'center',
      });
    doc
      .moveDown(0.3)
      .fillColor('#a33')
      .fontSize(8)
      .text(
        `Generated by ${data.productName} on ${istDateTime(data.generatedAt)}. The exchange and clearing corporation here are SIMULATORS: not a document of NSE, BSE, NSCCL or ICCL.`,
        { align: 'center' },
      );
    doc.fillColor('black');

    section(doc, 'Contract', [
      ['Contract note no.', o.number],
      ['Ticket', o.ticket_number],
      ['Our side', `${seller ? 'Sale' : 'Purchase'} (${ORDER_KIND_LABELS[o.kind]})`],
      ['Trade date', indianDate(o.trade_date)],
      ['Trade time', istDateTime(data.tradedAt)],
      ['Settlement date', `${indianDate(o.settlement_date)} (DVP-I)`],
      ['Exchange (reporting platform)', o.exchange],
      ['Clearing corporation', o.clearing_corporation],
      ['Exchange trade id', o.exchange_trade_id ?? '-'],
      ['Reported at', o.reported_at ? istDateTime(new Date(o.reported_at)) : '-'],
      ['Status', o.state_label],
    ]);
    section(doc, 'Security', [
      ['ISIN', o.isin],
      ['Bond', o.bond_name],
      ['Security type', data.securityType],
      ['Face value per bond', rs(data.faceValuePerBond)],
      ['Number of bonds', formatIndianNumber(c.bonds, 0)],
      ['Face value traded', rs(c.face_value)],
    ]);
    section(doc, 'Price and consideration', [
      ['Clean price (per Rs. 100)', o.price.toFixed(4)],
      ['Yield', pct(o.yield)],
      ['Accrued days', String(c.accrued_days)],
      ['Principal amount', rs(c.principal)],
      ['Accrued interest', rs(c.accrued_interest)],
      ['Consideration', rs(c.consideration)],
      ['Stamp duty (paid by the buyer)', rs(c.stamp_duty)],
      [seller ? 'Amount receivable' : 'Amount payable', rs(seller ? c.seller_receives : c.buyer_pays)],
    ]);
    section(doc, 'Seller (delivers securities at pay-in)', partyRows('Seller', data.seller, o.clearing_corporation));
    section(doc, 'Buyer (pays funds at pay-in)', partyRows('Buyer', data.buyer, o.clearing_corporation));
    doc
      .moveDown()
      .fontSize(7.5)
      .fillColor('#555')
      .text(
        'Consideration = face value x (clean price + accrued interest per Rs. 100) / 100, to the paisa; stamp duty 0.0001% of the consideration on the buyer, nil on government securities (Indian Stamp Act as amended by the Finance Act 2019). Funds and securities move through the clearing corporation delivery versus payment, trade by trade (DVP-I).',
        50,
      );
    doc.end();
  });
}
