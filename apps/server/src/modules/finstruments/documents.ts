/**
 * Generated PDFs (pdfkit): the IM information sheet, the bond details sheet and the quote sheet.
 * Every document says it is generated from public reference data; none is an issuer's own document.
 * The standard PDF fonts have no ₹ glyph, so amounts read "Rs.".
 */
import PDFKitDocument from 'pdfkit';
import { formatIndianNumber, type FinstrumentDetail, type PriceInfo } from '@dart/contracts';

type Rating = { agency: string; rating: string; as_of: string | null; source: string };

const pct = (fraction: number | null) => (fraction === null ? 'NA' : `${(fraction * 100).toFixed(4)}%`);
const rs = (value: number | null | undefined) => (value === null || value === undefined ? 'NA' : `Rs. ${formatIndianNumber(value, 2)}`);
const text = (value: unknown) => (value === null || value === undefined || value === '' ? '-' : String(value));

function render(build: (doc: PDFKit.PDFDocument) => void, title: string, productName: string, now: Date): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFKitDocument({
      size: 'A4',
      margin: 50,
      info: { Title: title, Author: productName, Creator: productName, CreationDate: now },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc
      .fontSize(9)
      .fillColor('#a33')
      .text(
        `GENERATED DOCUMENT - produced by ${productName} on ${now.toISOString().slice(0, 10)} from public reference data. Not an issuer document; verify before relying on it.`,
      );
    doc.moveDown().fillColor('black').fontSize(18).text(title);
    doc.moveDown(0.5);
    build(doc);
    doc
      .moveDown()
      .fontSize(8)
      .fillColor('#555')
      .text(
        'Sources: NSE, BSE, NSDL and SEBI mutual-fund disclosures as republished in public repositories; fields marked "assumed" are documented defaults.',
      );
    doc.end();
  });
}

function table(doc: PDFKit.PDFDocument, rows: Array<[string, string]>): void {
  doc.fontSize(10);
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('Helvetica-Bold').text(label, 50, y, { width: 180 });
    doc.font('Helvetica').text(value, 240, y, { width: 300 });
    doc.moveDown(0.2);
  }
}

function headerRows(f: FinstrumentDetail): Array<[string, string]> {
  const assumed = (field: string) => (f.assumed.includes(field) ? ' (assumed)' : '');
  return [
    ['Name', f.display_name],
    ['ISIN', f.identifiers.ISIN],
    ['Issuer', text(f.issuer_name)],
    ['Security type', f.security_type],
    ['Coupon', f.coupon_rate === null ? 'NA' : `${f.coupon_rate}% a year`],
    [
      'Coupon frequency',
      `${f.coupon_frequency === null ? 'NA' : f.coupon_frequency === 0 ? 'none (discount)' : `${f.coupon_frequency} a year`}${assumed('coupon_frequency')}`,
    ],
    ['Day count', text(f.day_count)],
    ['Face value per unit', `${f.face_value === null ? 'NA' : rs(f.face_value)}${assumed('face_value')}`],
    ['Issue / listing date', `${text(f.issue_date)} / ${text(f.listing_date)}`],
    ['Maturity', f.perpetual ? 'Perpetual' : text(f.contract_parameters.maturity_date)],
    ['Listed', f.contract_parameters.is_listed ? `Yes (${f.exchanges.join(', ')})` : 'No'],
    [
      'Rating',
      f.credit_rating
        ? `${f.credit_rating}${f.rating_agency ? ` by ${f.rating_agency}` : ''}${f.rating_as_of ? ` as of ${f.rating_as_of}` : ''}`
        : 'Not rated in the data',
    ],
    ['Status', f.is_matured ? 'Matured' : 'Live'],
  ];
}

export function renderImPdf(f: FinstrumentDetail, productName: string, now: Date): Promise<Buffer> {
  return render(
    (doc) => {
      doc.fontSize(11).text(`${f.display_name} (${f.identifiers.ISIN})`).moveDown(0.5);
      table(doc, headerRows(f));
      doc.moveDown().fontSize(12).font('Helvetica-Bold').text('Where each value comes from').font('Helvetica').moveDown(0.3);
      table(
        doc,
        Object.entries(f.provenance).map(([field, source]) => [field, source]),
      );
      doc
        .moveDown()
        .fontSize(10)
        .text(
          "The issuer's information memorandum is not part of the public data; this sheet summarises the terms known for the instrument.",
        );
    },
    'Information sheet (generated)',
    productName,
    now,
  );
}

export function renderBondDetailsPdf(f: FinstrumentDetail, ratings: Rating[], productName: string, now: Date): Promise<Buffer> {
  return render(
    (doc) => {
      table(doc, [
        ...headerRows(f),
        [
          'Reference yield',
          f.reference ? `${pct(f.reference.bond_yield)} (${f.reference.source}, ${f.reference.price_date})` : 'NA (Not Available)',
        ],
      ]);
      doc.moveDown().fontSize(12).font('Helvetica-Bold').text('Ratings seen').font('Helvetica').moveDown(0.3);
      if (ratings.length === 0) doc.fontSize(10).text('None in the data.');
      table(
        doc,
        ratings.map((r) => [`${r.agency} ${r.rating}`, `${text(r.as_of)} - ${r.source}`]),
      );
    },
    'Bond details',
    productName,
    now,
  );
}

export function renderQuotePdf(f: FinstrumentDetail, q: PriceInfo, productName: string, now: Date): Promise<Buffer> {
  return render(
    (doc) => {
      table(doc, [
        ['Bond', `${f.display_name} (${f.identifiers.ISIN})`],
        ['Trade date', q.trade_date],
        ['Settlement date', `${text(q.price.settlement_date)}${q.settlement_delta === null ? '' : ` (T+${q.settlement_delta})`}`],
        ['Clean price (per 100)', q.price.unit_clean_price === null ? 'NA' : q.price.unit_clean_price.toFixed(4)],
        ['Yield', pct(q.price.bond_yield)],
        ['Accrued interest (per 100)', q.price.accrued_interest === null ? 'NA' : q.price.accrued_interest.toFixed(6)],
        ['Priced on', q.fixed_field],
      ]);
      const c = q.consideration_details;
      if (c) {
        doc.moveDown().fontSize(12).font('Helvetica-Bold').text('Consideration').font('Helvetica').moveDown(0.3);
        table(doc, [
          ['Quantity (units)', formatIndianNumber(c.quantity, 0)],
          ['Face amount', rs(c.face_amount)],
          ['Principal', rs(c.principal)],
          ['Accrued interest', rs(c.accrued_interest)],
          ['Consideration', rs(c.consideration)],
          ['Stamp duty', rs(c.stamp_duty)],
          ['Total payable', rs(c.total)],
        ]);
      }
      for (const warning of q.warnings) doc.moveDown(0.3).fontSize(9).fillColor('#a33').text(warning).fillColor('black');
    },
    'Quote sheet',
    productName,
    now,
  );
}
