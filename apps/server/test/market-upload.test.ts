/**
 * Issue 5 ("Market"): bulk quote upload (`POST api/eoi/upload/`, CSV or XLSX as the body) through the
 * HTTP API: every row held to the single-create rules with the spec's messages, row-level errors and
 * nothing imported when one row is bad, file limits (empty, too large, not a spreadsheet, macro
 * workbook, zip bomb, too many rows), who may upload, and the template round trip.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

const GSEC_2033 = 'IN0020220151';
const HDFC_NCD = 'INE040A08955';
const CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Quote = {
  id: string;
  finstrument_id: number;
  quote_type: string;
  source: string;
  yield_stored: number;
  unit_price_stored: number;
  quantum: number;
};
type Result = { created: number; bid_count: number; ask_count: number; quotes: Quote[] };
type RowError = { row: number; field: string; message: string };

/** A stored (uncompressed) zip with these entries; `claimedSize` overrides the central directory's sizes. */
function zip(entries: Array<{ name: string; data: string }>, claimedSize?: number): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const data = Buffer.from(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(claimedSize ?? data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

async function xlsx(rows: Array<Array<ExcelJS.CellValue>>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Quotes');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe.each(DRIVERS)('market bulk upload (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};

  const upload = (who: string | null, body: Buffer | string, type = CSV) =>
    t.app.inject({
      method: 'POST',
      url: '/api/eoi/upload/',
      payload: body,
      headers: { 'content-type': type, ...(who ? bearer(tok[who]!) : {}) },
    });
  const myQuoteCount = async (who: string) =>
    json<{ count: number }>(await t.app.inject({ method: 'GET', url: '/api/trade/d/market/?my_quotes=true', headers: bearer(tok[who]!) }))
      .count;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    const who = {
      demo: 'dealer@demo.dart',
      second: 'dealer@second.dart',
      viewer: 'viewer@demo.dart',
      compliance: 'compliance@demo.dart',
      opsadmin: 'opsadmin@demo.dart',
    };
    // View-only users are refused as such even when their firm grants them trade access.
    await t.database.query(
      `INSERT INTO user_account_permissions (user_account_id, permission)
       SELECT a.id, 'client.can_trade' FROM user_accounts a JOIN users u ON u.id = a.user_id
       WHERE u.email IN ('viewer@demo.dart', 'compliance@demo.dart') ON CONFLICT DO NOTHING`,
    );
    for (const [name, email] of Object.entries(who)) tok[name] = (await login(t.app, email)).access;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('imports every row of a CSV like single creates (yield in percent, price, settlement date), source UPLOAD', async () => {
    const csv = [
      'ISIN,Quote Type,Quantum,Price,Yield,Validity,Settlement Date,Settlement Delta,State,End Client Id',
      `${GSEC_2033},BID,1cr,,7.05,60,,1,FIRM,EC-1`,
      `${GSEC_2033.toLowerCase()},ask,"10,00,00,000",105.5,,,,0,,`,
      '',
      `${HDFC_NCD},,25 L,,8.1,,,,,`,
    ].join('\n');
    const response = await upload('demo', `\uFEFF${csv}`);
    expect(response.statusCode, response.body).toBe(201);
    const result = json<Result>(response);
    expect(result).toMatchObject({ created: 3, bid_count: 2, ask_count: 1 });
    expect(result.quotes[0]).toMatchObject({
      quote_type: 'BID',
      yield_stored: 0.0705,
      quantum: 100 * LAKH,
      source: 'UPLOAD',
      state: 'FIRM',
      validity: 60,
    });
    expect(result.quotes[1]).toMatchObject({
      quote_type: 'ASK',
      unit_price_stored: 105.5,
      quantum: 1000 * LAKH,
      fixed_field: 'price',
      settlement_delta: 0,
    });
    expect(result.quotes[2]).toMatchObject({ quote_type: 'BID', yield_stored: 0.081, isin: HDFC_NCD, validity: 1440, quantum: 25 * LAKH });
    // The same price a single create gives for that yield.
    const single = json<Quote>(
      await t.app.inject({
        method: 'POST',
        url: '/api/trade/eoi/',
        payload: { finstrument_id: result.quotes[0]!.finstrument_id, quantum: LAKH, yield_stored: 0.0705, settlement_delta: 1 },
        headers: bearer(tok.demo!),
      }),
    );
    expect(result.quotes[0]!.unit_price_stored).toBe(single.unit_price_stored);
    const audit = await t.database.query<{ action: string }>(`SELECT action FROM audit_log WHERE action = 'quote.uploaded'`);
    expect(audit).toHaveLength(1);
    // Others see the uploaded quotes in public runs, anonymously.
    const runs = json<{ results: Array<{ id: string; client_name: string | null }> }>(
      await t.app.inject({ method: 'GET', url: `/api/trade/d/market/?search=${HDFC_NCD}`, headers: bearer(tok.second!) }),
    );
    expect(runs.results.find((q) => q.id === result.quotes[2]!.id)).toMatchObject({ client_name: null });
  });

  it('imports an XLSX file (numbers, text and formulas)', async () => {
    const file = await xlsx([
      ['isin', 'quote_type', 'quantum', 'yield', 'settlement_delta'],
      [GSEC_2033, 'ASK', 10 * LAKH, 6.5, 1],
      [GSEC_2033, 'ASK', '20L', '6.6', 1],
      [{ richText: [{ text: GSEC_2033 }] }, 'ask', { formula: '15*200000', result: 30 * LAKH }, 6.7, 1],
    ]);
    const response = await upload('demo', file, XLSX);
    expect(response.statusCode, response.body).toBe(201);
    expect(json<Result>(response).quotes.map((q) => [q.quantum, q.yield_stored])).toEqual([
      [10 * LAKH, 0.065],
      [20 * LAKH, 0.066],
      [30 * LAKH, 0.067],
    ]);
  });

  it('refuses the whole file with row-level errors when any row is bad, importing nothing', async () => {
    const before = await myQuoteCount('demo');
    const csv = [
      'isin,quote_type,quantum,price,yield,settlement_date,settlement_delta',
      `${GSEC_2033},BID,100,,7,,1`,
      `${GSEC_2033},BID,0,,7,,1`,
      'INE000000000,BID,10L,,7,,1',
      `${GSEC_2033},BID,10L,101,7,,1`,
      `${GSEC_2033},BID,10L,,,,1`,
      `${GSEC_2033},HOLD,abc,,150,,1`,
      `${GSEC_2033},ASK,10L,300,,2030-01-01,1`,
    ].join('\n');
    const response = await upload('demo', csv);
    expect(response.statusCode).toBe(400);
    const body = json<{ code: string; message: string; row_errors: RowError[]; errors: Record<string, string[]> }>(response);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toBe('6 rows have errors; nothing was imported.');
    expect(body.row_errors).toEqual([
      { row: 3, field: 'quantum', message: 'Cannot be zero' },
      { row: 4, field: 'isin', message: 'Bond not found.' },
      { row: 5, field: 'price', message: 'Cannot provide both price and yield' },
      { row: 6, field: 'yield', message: 'This field is required' },
      { row: 7, field: 'quote_type', message: 'Quote type should be BID or ASK.' },
      { row: 7, field: 'yield', message: 'Yield above 100%' },
      { row: 7, field: 'quantum', message: 'Enter a size such as 5cr, 50L or 5,00,00,000' },
      { row: 8, field: 'price', message: 'Should be less than 250' },
      { row: 8, field: 'settlement_date', message: 'Cannot provide both settlement date and settlement delta' },
    ]);
    expect(body.errors['row_3.quantum']).toEqual(['Cannot be zero']);
    expect(await myQuoteCount('demo')).toBe(before);
  });

  it('refuses a file whose header is wrong or that has no rows', async () => {
    const missing = await upload('demo', `isin,yield\n${GSEC_2033},7`);
    expect(missing.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(missing).errors.quantum).toEqual(['Missing column: quantum.']);
    const unknown = await upload('demo', `isin,quantum,yield,client_id\n${GSEC_2033},1,7,x`);
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown).message).toBe('Unknown column: client_id.');
    const headerOnly = await upload('demo', 'isin,quantum,yield\n\n');
    expect(headerOnly.statusCode).toBe(400);
    expect(json(headerOnly).message).toBe('The file has no quote rows.');
  });

  it('enforces the file limits: empty, not a spreadsheet, too large, too many rows, macro workbook, zip bomb', async () => {
    const empty = await upload('demo', Buffer.alloc(0), 'application/octet-stream');
    expect(empty.statusCode).toBe(400);
    const pdf = await upload('demo', Buffer.from('%PDF-1.7\n\u0000\u0001binary'), 'application/octet-stream');
    expect(pdf.statusCode).toBe(415);
    expect(json(pdf).message).toBe('Upload a CSV or XLSX file.');
    const large = await upload('demo', `isin,quantum,yield\n${`${GSEC_2033},1,7\n`.repeat(80_000)}`);
    expect(large.statusCode).toBe(413);
    const many = await upload('demo', `isin,quantum,yield\n${`${GSEC_2033},1,7\n`.repeat(501)}`);
    expect(many.statusCode).toBe(400);
    expect(json(many).message).toBe('At most 500 quotes per file.');
    const macro = await upload('demo', zip([{ name: 'xl/vbaProject.bin', data: 'x' }]), XLSX);
    expect(macro.statusCode).toBe(415);
    expect(json(macro).message).toBe('Macro-enabled workbooks are not accepted.');
    const bomb = await upload('demo', zip([{ name: 'xl/worksheets/sheet1.xml', data: 'x' }], 500 * 1_048_576), XLSX);
    expect(bomb.statusCode).toBe(413);
    const broken = await upload('demo', zip([{ name: 'hello.txt', data: 'not a workbook' }]), XLSX);
    expect(broken.statusCode).toBe(400);
    expect(json(broken).message).toBe('The file could not be read as CSV or XLSX.');
    const html = await upload('demo', '<html><script>alert(1)</script></html>', 'text/html');
    expect(html.statusCode).toBe(415);
  });

  it('lets only traders upload: view-only 403, no trade access 403, anonymous 401', async () => {
    const csv = `isin,quantum,yield\n${GSEC_2033},1,7`;
    for (const who of ['viewer', 'compliance']) {
      const response = await upload(who, csv);
      expect(response.statusCode).toBe(403);
      expect(json(response).code).toBe('VIEW_ONLY');
    }
    expect((await upload('opsadmin', csv)).statusCode).toBe(403);
    expect((await upload(null, csv)).statusCode).toBe(401);
  });

  it('offers a CSV and an XLSX template that upload as they are', async () => {
    const csv = await t.app.inject({ method: 'GET', url: '/api/eoi/upload/template/', headers: bearer(tok.second!) });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="dart-quotes-template.csv"');
    expect(csv.headers['x-content-type-options']).toBe('nosniff');
    expect(csv.body.split('\r\n')[0]).toBe(
      'isin,quote_type,quantum,price,yield,validity,settlement_date,settlement_delta,state,end_client_id',
    );
    expect(json<Result>(await upload('second', csv.body)).created).toBe(2);
    const book = await t.app.inject({ method: 'GET', url: '/api/eoi/upload/template/?format=xlsx', headers: bearer(tok.second!) });
    expect(book.statusCode).toBe(200);
    expect(book.headers['content-type']).toBe(XLSX);
    expect(json<Result>(await upload('second', book.rawPayload, XLSX)).created).toBe(2);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/eoi/upload/template/?format=pdf', headers: bearer(tok.second!) })).statusCode,
    ).toBe(400);
  });
});
