/**
 * Market (issue 5) in Chromium against the real server and its bond slice: the bulk upload dialog
 * (template download, row-level errors with nothing imported, then a good file with its summary),
 * the quotes' countdowns and "Close selected" in the blotter, the market depth of a bond picked in
 * the instruments list or the blotter, the Premium (402) state a BASIC client sees instead, an
 * exchange RFQ's countdown (red in its last minute, then Expired), and an exchange RFQ answered from
 * the RFQ panel by another firm, accepted by the requester, with the deal on both sides.
 */
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, resetWorkspaceLayout, signIn } from './helpers';

const HDFC_ISIN = 'INE040A08955';
const HDFC_BOND = 'HDFC Bank Limited 7.70% NCD 16-May-2028';
/** Sizes are face value in rupees (issue 12 §1); this NCD is ₹1 L a bond. */
const LAKH = 100_000;

async function openWorkspace(page: Page, email: string): Promise<void> {
  await signIn(page, email);
  await page.goto('/dart');
  await expect(page.getByRole('heading', { name: 'Workspace', level: 1 })).toBeVisible();
  await resetWorkspaceLayout(page);
}

async function chooseFile(page: Page, name: string, content: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Upload quotes' });
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: /File/ }).click();
  await (await chooser).setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
}

/** Demo Capital's dealer raises an ask on the HDFC NCD on NSE RFQ (NSCCL) through the API. */
async function raiseRfq(request: APIRequestContext, rfq: { quantum: number; yield_stored: number; validForMs: number }): Promise<void> {
  const { access } = (await (await request.post('/api/token/', { data: { email: DEMO.dealer, password: DEMO_PASSWORD } })).json()) as {
    access: string;
  };
  const bond = (await (await request.get(`/api/finstrument/${HDFC_ISIN}/`)).json()) as { id: number };
  const raised = await request.post('/api/trade/eoi/', {
    headers: { authorization: `Bearer ${access}` },
    data: {
      finstrument_id: bond.id,
      quote_type: 'ASK',
      quantum: rfq.quantum,
      yield_stored: rfq.yield_stored,
      send_to_rfq: true,
      clearing_corporation: 'NSCCL',
      expiry_date_stored: new Date(Date.now() + rfq.validForMs).toISOString(),
    },
  });
  expect(raised.status(), await raised.text()).toBe(201);
}

test.describe('Market depth and bulk upload', () => {
  test('uploads quotes: template, row errors with nothing imported, then a good file', async ({ page, consoleGuard }) => {
    // The file with row errors is refused with a 400, which the browser logs.
    consoleGuard.allow(/status of 400 .*\/api\/eoi\/upload\/\)$/);
    await openWorkspace(page, DEMO.dealer);
    await page.getByRole('button', { name: 'Upload quotes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload quotes' });
    await expect(dialog.getByText('If any row is wrong, nothing is imported.')).toBeVisible();

    // The template downloads as a CSV with the documented columns.
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'CSV', exact: true }).click();
    const template = await download;
    expect(template.suggestedFilename()).toBe('dart-quotes-template.csv');
    expect(readFileSync(await template.path(), 'utf8').split('\r\n')[0]).toBe(
      'isin,quote_type,quantum,price,yield,validity,settlement_date,settlement_delta,state,end_client_id',
    );

    // A file with bad rows: every row error is listed and nothing is imported.
    await chooseFile(
      page,
      'bad-quotes.csv',
      ['isin,quote_type,quantum,yield,settlement_delta', `${HDFC_ISIN},BID,0,8.2,1`, 'INE000000000,ASK,10L,7.6,1'].join('\n'),
    );
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByTestId('upload-refused')).toContainText('2 rows have errors; nothing was imported.');
    const errors = dialog.getByRole('table', { name: 'Row errors' });
    await expect(errors.getByRole('row')).toHaveCount(3);
    await expect(errors.getByRole('row').nth(1)).toContainText(/2\s*quantum\s*Cannot be zero/);
    await expect(errors.getByRole('row').nth(2)).toContainText(/3\s*isin\s*Bond not found\./);

    // A good file: the progress bar runs, then the summary; the quotes are live in the blotter.
    await chooseFile(
      page,
      'quotes.csv',
      [
        'isin,quote_type,quantum,yield,validity,settlement_delta',
        // quantum is face value in rupees (issue 12 §1): plain rupees or lakh/crore shorthand, whole ₹1 L bonds.
        `${HDFC_ISIN},BID,1cr,8.2,120,1`,
        `${HDFC_ISIN},BID,"50,00,000",8.2,120,1`,
        `${HDFC_ISIN},ASK,30L,7.6,120,1`,
      ].join('\n'),
    );
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/eoi/upload/'));
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    expect((await uploaded).status()).toBe(201);
    await expect(dialog.getByTestId('upload-summary')).toContainText('3 quotes created (2 bids, 1 asks)');
    await dialog.getByRole('button', { name: 'Close' }).click();

    const grid = page.getByTestId('grid-public-runs');
    await page.getByRole('switch', { name: 'My quotes' }).check();
    await expect(grid.getByRole('row').filter({ hasText: '8.2000%' })).toHaveCount(2);
    // Each open quote counts down to its validity end (120 minutes from now).
    // (The uploaded rows' own countdowns: "My quotes" also lists what earlier tests had this dealer post.)
    await expect(grid.getByRole('row').filter({ hasText: '8.2000%' }).first().getByTestId('countdown')).toHaveText(/^(1h \d\dm|2h 00m)$/);

    // Close selected: tick the two bids and close them together.
    const bids = grid.getByRole('row').filter({ hasText: '8.2000%' });
    for (const row of await bids.all()) await row.getByRole('checkbox', { name: /toggle row selection/ }).check();
    const closeSelected = page.getByRole('button', { name: 'Close selected (2)' });
    await expect(closeSelected).toBeVisible();
    const closed = page.waitForResponse((r) => r.url().endsWith('/api/trade/d/eoi/close/'));
    await closeSelected.click();
    expect((await closed).status()).toBe(200);
    await expect(page.getByText('2 quotes closed')).toBeVisible();
    await expect(closeSelected).toBeHidden();
  });

  test('shows the depth of a bond picked in the instruments list, without firm names', async ({ page }) => {
    await openWorkspace(page, DEMO.secondDealer);
    // Market depth is a tab behind Public runs in the default (Trader) dock layout.
    await page.getByRole('tab', { name: 'Market depth', exact: true }).click();
    const panel = page.getByTestId('panel-market-depth');
    await expect(panel.getByText('Pick a bond')).toBeVisible();
    await panel.getByRole('button', { name: `Depth of ${HDFC_BOND}` }).click();
    await expect(panel.getByText(`Depth · ${HDFC_BOND}`)).toBeVisible();
    const asks = panel.getByRole('table', { name: 'Asks by price level' });
    await expect(asks.getByRole('row').filter({ hasText: '7.6000%' })).toContainText(/Best\s*7\.6000%\s*[\d.]+\s*₹30 L\s*1/);
    await expect(panel.getByTestId('depth-ladder')).not.toContainText('Demo Capital');
    // Filtering the list by ISIN keeps the bond; an unknown one empties it.
    await panel.getByRole('textbox', { name: 'Filter instruments in the market' }).fill('ZZZZ');
    await expect(panel.getByText('No bond in the market matches.')).toBeVisible();
  });

  test('a BASIC client sees the Premium upgrade state instead of the depth', async ({ page, consoleGuard }) => {
    // Depth is Premium: the 402 is the answer this test is about.
    consoleGuard.allow(/status of 402 .*\/api\/quote\/depth\//);
    await openWorkspace(page, DEMO.basic);
    // Market depth is a tab behind Public runs in the default (Trader) dock layout.
    await page.getByRole('tab', { name: 'Market depth', exact: true }).click();
    const panel = page.getByTestId('panel-market-depth');
    await panel.getByRole('button', { name: `Depth of ${HDFC_BOND}` }).click();
    const upgrade = panel.getByTestId('depth-upgrade');
    await expect(upgrade).toContainText('Market depth is a Premium feature');
    await expect(upgrade.getByRole('button', { name: 'Request Upgrade' })).toBeVisible();
  });

  test('an exchange RFQ counts down to its end: red in the last minute, then Expired', async ({ page, request }) => {
    await raiseRfq(request, { quantum: 10 * LAKH, yield_stored: 0.079, validForMs: 25_000 });

    await openWorkspace(page, DEMO.secondDealer);
    const item = page.getByTestId('rfq-item').filter({ hasText: HDFC_BOND });
    await expect(item.getByRole('button', { name: `Respond to the RFQ on ${HDFC_BOND}` })).toBeVisible();
    const countdown = item.getByTestId('countdown');
    await expect(countdown).toHaveText(/^0m \d\ds$/);
    await expect(countdown).toHaveAttribute('data-urgent', 'true');
    await expect(countdown).toHaveText('Expired', { timeout: 30_000 });
  });

  test('an exchange RFQ is answered from the RFQ panel; the requester accepts and both firms see the deal', async ({
    browser,
    request,
  }) => {
    // Demo Capital asks NSE RFQ for ₹40 L (40 bonds; its ask: it sells), valid 10 minutes.
    await raiseRfq(request, { quantum: 40 * LAKH, yield_stored: 0.0791, validForMs: 10 * 60_000 });

    const open = async (email: string) => {
      const page = await (await browser.newContext()).newPage();
      await openWorkspace(page, email);
      await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'connected');
      return page;
    };
    const second = await open(DEMO.secondDealer);
    const demo = await open(DEMO.dealer);

    // The requester sees its own RFQ as "Yours"; Second Bank responds to it at 7.93 % from the panel.
    const own = demo.getByTestId('rfq-item').filter({ hasText: HDFC_BOND }).filter({ hasText: '7.9100%' });
    await expect(own.getByRole('button', { name: 'Yours · View' })).toBeVisible();
    const item = second.getByTestId('rfq-item').filter({ hasText: HDFC_BOND }).filter({ hasText: '7.9100%' });
    await expect(item.getByTestId('countdown')).toHaveText(/^\d+m \d\ds$/);
    await item.getByRole('button', { name: `Respond to the RFQ on ${HDFC_BOND}` }).click();
    const response = second.getByRole('dialog');
    await response.getByRole('textbox', { name: /^Yield \(%\)/ }).fill('7.93');
    await response.getByRole('button', { name: 'Send counter' }).click();
    await expect(response.getByRole('table', { name: 'Negotiation history' })).toContainText('7.9300%');
    await expect(response.getByText('Waiting for the other side')).toBeVisible();

    // Demo Capital gets the response live, accepts it, and both see the deal of ₹40 L at 7.93 %.
    const negotiation = demo.getByTestId('negotiation-item').filter({ hasText: '7.9300%' });
    await expect(negotiation).toContainText('Your turn');
    await negotiation.click();
    const accept = demo.getByRole('dialog');
    await accept.getByRole('button', { name: /^Accept ₹40 L at 7\.9300%/ }).click();
    await expect(accept.getByTestId('negotiation-deal')).toContainText('Sold ₹40 L · 40 bonds');
    await expect(response.getByTestId('negotiation-deal')).toContainText('₹40 L');
    await second.keyboard.press('Escape');
    await expect(
      second
        .getByTestId('deal-item')
        .filter({ hasText: `Bought · ${HDFC_BOND}` })
        .first(),
    ).toContainText('₹40 L');
  });

  test('updates and replaces an own quote from the blotter', async ({ page }) => {
    await openWorkspace(page, DEMO.broker);
    await page.getByRole('button', { name: 'Upload quotes' }).click();
    await chooseFile(page, 'one.csv', `isin,quote_type,quantum,yield,settlement_delta\n${HDFC_ISIN},BID,70L,8.4,1`);
    await page.getByRole('dialog', { name: 'Upload quotes' }).getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(page.getByTestId('upload-summary')).toContainText('1 quote created');
    await page.getByRole('dialog', { name: 'Upload quotes' }).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('switch', { name: 'My quotes' }).check();
    const grid = page.getByTestId('grid-public-runs');

    await grid.getByRole('button', { name: `Change your bid on ${HDFC_BOND}` }).click();
    const edit = page.getByRole('dialog', { name: `Change your bid on ${HDFC_BOND}` });
    await edit.getByRole('textbox', { name: 'Yield (%)' }).fill('8.45');
    const updated = page.waitForResponse((r) => r.url().includes('/api/eoi/update/'));
    await edit.getByRole('button', { name: 'Update' }).click();
    expect((await updated).status()).toBe(200);
    await expect(grid.getByRole('row').filter({ hasText: '8.4500%' })).toHaveCount(1);

    await grid.getByRole('button', { name: `Change your bid on ${HDFC_BOND}` }).click();
    await edit.getByRole('textbox', { name: /^Face value/ }).fill('35L');
    const replaced = page.waitForResponse((r) => r.url().endsWith('/api/trade/eoi/') && r.request().method() === 'POST');
    await edit.getByRole('button', { name: 'Replace' }).click();
    expect((await replaced).status()).toBe(201);
    await expect(page.getByText('Quote replaced')).toBeVisible();
    // The replacement is open with the new size (₹35 L: 35 bonds); the old quote is no longer open.
    const rows = grid.getByRole('row').filter({ hasText: '8.4500%' });
    await expect(rows.filter({ has: page.getByRole('gridcell', { name: '₹35 L', exact: true }) })).toHaveCount(1);
    await expect(rows.filter({ has: page.getByRole('gridcell', { name: 'Open', exact: true }) })).toHaveCount(1);
  });
});
