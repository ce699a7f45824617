/**
 * Keyboard-first (issue 12 §4) in Chromium against the real server: `/` and Ctrl+K focus the header's
 * bond search and the arrows and Enter pick a bond; on /dart a public-runs row reached with Tab and the
 * arrows selects its bond, `B` opens a bid ticket on it with the first empty field focused, and Enter
 * posts the bid, which shows in the blotter as the dealer's own; letters typed in a field stay text;
 * the change dialog updates on Enter; B with the ticket panel closed opens it; the matches list moves with
 * the arrows; `?` lists the shortcuts (B and S only for a user who can trade) and Esc closes the list. Selectors
 * go by role and label, never by the workspace's layout.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, resetWorkspaceLayout, signIn } from './helpers';

/** 7.18% GS 2033: a G-sec (₹100 a bond), so ₹5 Cr is a whole number of bonds. */
const GSEC_ISIN = 'IN0020230085';
const FIVE_CRORE = 50_000_000;

const publicRuns = (page: Page) => page.getByTestId('grid-public-runs');
const ticketOf = (page: Page) => page.getByRole('form', { name: 'New quote' });
const sheetOf = (page: Page) => page.getByRole('dialog', { name: 'Keyboard shortcuts' });

/** Posts a quote of ₹5 Cr on a G-sec through the API as `email` (yield as a decimal, T+1). */
async function postQuote(
  request: APIRequestContext,
  email: string,
  isin: string,
  side: 'BID' | 'ASK',
  yieldDecimal: number,
): Promise<string> {
  const { access } = (await (await request.post('/api/token/', { data: { email, password: DEMO_PASSWORD } })).json()) as { access: string };
  const bond = (await (await request.get(`/api/finstrument/${isin}/`)).json()) as { id: number };
  const posted = await request.post('/api/trade/eoi/', {
    headers: { authorization: `Bearer ${access}` },
    data: { finstrument_id: bond.id, quote_type: side, quantum: FIVE_CRORE, yield_stored: yieldDecimal, settlement_delta: 1 },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  return ((await posted.json()) as { id: string }).id;
}

/** Second Bank asks on the G-sec (7.35 % unless said), so the blotter has a row on that bond. */
const askAsSecondBank = (request: APIRequestContext, yieldDecimal = 0.0735) =>
  postQuote(request, DEMO.secondDealer, GSEC_ISIN, 'ASK', yieldDecimal);

async function openDart(page: Page, email: string): Promise<void> {
  await signIn(page, email);
  await page.goto('/dart');
  await expect(page.getByRole('heading', { name: 'Workspace', level: 1 })).toBeVisible();
  await resetWorkspaceLayout(page);
}

/** Presses Tab until focus is inside `container` (at most `limit` presses). */
async function tabInto(page: Page, testId: string, limit = 15): Promise<void> {
  for (let press = 0; press < limit; press += 1) {
    await page.keyboard.press('Tab');
    const inside = await page.evaluate((id) => Boolean(document.activeElement?.closest(`[data-testid="${id}"]`)), testId);
    if (inside) return;
  }
  throw new Error(`Tab did not reach ${testId} in ${limit} presses`);
}

test.describe('Keyboard', () => {
  test('/ and Ctrl+K focus the bond search; the arrows and Enter open the bond', async ({ page }) => {
    await openDart(page, DEMO.dealer);
    const search = page.getByRole('searchbox', { name: 'Search bonds' });

    // B with no bond selected: a bid ticket with its bond field focused.
    await page.keyboard.press('b');
    const ticketSearch = ticketOf(page).getByRole('searchbox', { name: 'Bond for the quote' });
    await expect(ticketSearch).toBeFocused();
    await expect(ticketOf(page).getByRole('radio', { name: 'Bid (buy)' })).toBeChecked();
    // Esc closes the field's open list first, then leaves the ticket.
    await expect(ticketSearch).toHaveAttribute('data-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(ticketSearch).not.toHaveAttribute('data-expanded', 'true');
    await expect(ticketSearch).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(ticketSearch).not.toBeFocused();

    await page.keyboard.press('/');
    await expect(search).toBeFocused();
    await expect(search).toHaveValue(''); // the / is not typed
    await page.keyboard.type(GSEC_ISIN);
    const option = page.getByRole('option').first();
    await expect(option).toContainText(GSEC_ISIN);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/security\/\d+/);

    // Ctrl+K from the page, and from inside another field (it types nothing there).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+k');
    await expect(search).toBeFocused();
    await page.keyboard.press('Escape');
    await page.goto('/dart');
    const filter = page.getByRole('textbox', { name: 'Filter public runs' });
    await filter.click();
    await page.keyboard.type('/?b');
    await expect(filter).toHaveValue('/?b'); // letters and symbols typed in a field stay text
    await expect(sheetOf(page)).toBeHidden();
    await page.keyboard.press('Control+k');
    await expect(search).toBeFocused();
  });

  test('a public-runs row chosen with the keyboard, B, the size and Enter post a bid on that bond', async ({ page, request }) => {
    // At 6.50 % (a rich price) the ask crosses no bid an earlier spec left open (face-value's bid at 7.01 %
    // crossed the 7.35 % default, and a crossed ask is matched away from the public runs).
    const askId = await askAsSecondBank(request, 0.065);
    await openDart(page, DEMO.dealer);
    const ticket = ticketOf(page);

    // Narrow the blotter to the G-sec, then reach its rows with Tab and the arrows.
    const filter = page.getByRole('textbox', { name: 'Filter public runs' });
    await filter.fill(GSEC_ISIN);
    await expect(publicRuns(page).locator(`.ag-row[row-id="${askId}"]`)).toBeVisible();
    await filter.focus();
    await tabInto(page, 'grid-public-runs');
    await page.keyboard.press('ArrowDown');
    const focusedCell = publicRuns(page).locator('.ag-cell:focus');
    await expect(focusedCell).toHaveCount(1);
    await expect(focusedCell).toHaveCSS('outline-style', 'solid'); // the focus ring, not AG Grid's hairline
    await expect(focusedCell).toHaveCSS('outline-width', '2px');
    const rowName = await publicRuns(page).locator('.ag-row-focus [col-id="bond"]').first().innerText();

    // B: a bid ticket on that bond, focus in the first empty field (the size: the yield is prefilled).
    await page.keyboard.press('b');
    await expect(ticket.getByTestId('ticket-bond')).toHaveText(rowName);
    await expect(ticket).toContainText(GSEC_ISIN);
    await expect(ticket.getByRole('radio', { name: 'Bid (buy)' })).toBeChecked();
    const yieldBox = ticket.getByRole('textbox', { name: /^Yield \(%\)/ });
    await expect(yieldBox).toHaveValue(/^\d+\.\d{4}$/);
    const focused = ticket.locator('input:focus');
    await expect(focused).toHaveCount(1);
    await expect(focused).toHaveValue('');

    // Type the size, then the yield, and Enter posts the bid.
    await page.keyboard.type('5cr');
    await yieldBox.fill('7.45'); // above the ask's 6.50 %: the bid does not cross it
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/trade/eoi/') && r.request().method() === 'POST');
    await page.keyboard.press('Enter');
    const response = await posted;
    expect(response.status()).toBe(201);
    const body = (await response.json()) as { id: string; quote_type: string; quantum: number };
    expect(body.quote_type).toBe('BID');
    expect(body.quantum).toBe(FIVE_CRORE);
    // The row by its quote id: a narrow panel renders only the columns in view (AG Grid), so text filters miss it.
    const mine = publicRuns(page).locator(`.ag-row[row-id="${body.id}"]`);
    await expect(mine).toContainText('7.4500%');
    await expect(mine).toContainText('You');
    await expect(mine).toContainText('Bid');

    // The change dialog: Enter in a field updates the quote; Esc closes the dialog. (End brings the
    // row's last column, its actions, into a narrow panel's view.)
    await mine.getByRole('gridcell', { name: rowName, exact: true }).click();
    await page.keyboard.press('End');
    await mine.getByRole('button', { name: /^Change your bid on / }).click();
    const edit = page.getByRole('dialog', { name: /^Change your bid on / });
    await edit.getByRole('textbox', { name: 'Yield (%)' }).fill('7.46');
    const updated = page.waitForResponse((r) => r.url().includes('/api/eoi/update/'));
    await page.keyboard.press('Enter');
    const update = await updated;
    expect(update.status()).toBe(200);
    expect(((await update.json()) as { yield_stored: number }).yield_stored).toBeCloseTo(0.0746, 6);
    await expect(edit).toBeHidden();
    await mine.getByRole('button', { name: /^Change your bid on / }).click();
    await expect(edit).toBeVisible();
    await expect(edit.getByRole('textbox', { name: 'Yield (%)' })).toHaveValue(/^7\.46/);
    await page.keyboard.press('Escape');
    await expect(edit).toBeHidden();

    // S on a row: the ask side; Esc in the ticket clears it and returns focus to the blotter.
    await mine.getByRole('gridcell', { name: 'You', exact: true }).click();
    await page.keyboard.press('Home'); // back to the row's first column
    await page.keyboard.press('s');
    await expect(ticket.getByRole('radio', { name: 'Ask (sell)' })).toBeChecked();
    await expect(ticket.locator('input:focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(ticket.getByTestId('ticket-bond')).toBeHidden();
    await expect(publicRuns(page).locator('.ag-cell:focus')).toHaveCount(1);

    // With the ticket's panel closed, B opens it again on the row's bond.
    await page.getByRole('button', { name: 'Close New quote' }).click();
    await expect(ticket).toBeHidden();
    await mine.getByRole('gridcell', { name: rowName, exact: true }).click();
    await page.keyboard.press('b');
    await expect(ticket.getByTestId('ticket-bond')).toHaveText(rowName);
    await expect(ticket.getByRole('radio', { name: 'Bid (buy)' })).toBeChecked();
    await expect(mine).toBeVisible(); // opened beside the blotter, not over it

    // Leave the dealer's saved layout as it was for the tests after this one.
    await page.getByRole('button', { name: 'Layout' }).click();
    const saved = page.waitForResponse((r) => r.url().includes('/api/workspace/layout/') && r.request().method() === 'PUT');
    await page.getByRole('menuitem', { name: 'Reset layout' }).click();
    expect((await saved).ok()).toBe(true);
  });

  test('the matches list is one Tab stop: Up/Down move between matches, Tab goes on to Accept', async ({ page, request }) => {
    // Two crossing pairs (Demo Capital bids 7.30 % under Second Bank's 7.35 % asks): two matches.
    for (let pair = 0; pair < 2; pair += 1) {
      await askAsSecondBank(request);
      await postQuote(request, DEMO.dealer, GSEC_ISIN, 'BID', 0.073);
    }
    await openDart(page, DEMO.dealer);
    const matches = page.getByRole('list', { name: 'Matches' });
    const items = matches.getByRole('listitem');
    await expect(items.nth(1)).toBeVisible();
    await expect(matches.locator('[data-roving-item][tabindex="0"]')).toHaveCount(1);
    await items.first().focus();
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(1)).toBeFocused();
    await expect(items.nth(1)).toHaveCSS('outline-style', 'solid');
    await expect(matches.locator('[data-roving-item][tabindex="0"]')).toHaveCount(1);
    await page.keyboard.press('Home');
    await expect(items.first()).toBeFocused();
    await page.keyboard.press('ArrowUp'); // stays on the first
    await expect(items.first()).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(items.first().getByRole('button', { name: 'Accept' })).toBeFocused();
  });

  test('? lists the shortcuts of the screen and Esc closes the list; a view-only user gets no B or S', async ({
    browser,
    page,
    request,
  }) => {
    // A blotter on screen lists its keys. At 7.00 % the ask crosses no bid an earlier test left.
    const askId = await askAsSecondBank(request, 0.07);
    await openDart(page, DEMO.dealer);
    // The row by its quote id: a narrow panel renders only the columns in view (AG Grid).
    const ask = publicRuns(page).locator(`.ag-row[row-id="${askId}"]`);
    await expect(ask).toBeVisible();
    await page.keyboard.press('?');
    const sheet = sheetOf(page);
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole('row', { name: /Search bonds/ })).toContainText('/');
    await expect(sheet.getByRole('row', { name: /Search bonds/ })).toContainText('Ctrl');
    await expect(sheet).toContainText('Bid on the selected bond');
    await expect(sheet).toContainText('Counter the quote');
    // Keys do not act behind the sheet: B does not open a ticket.
    await page.keyboard.press('b');
    await expect(ticketOf(page).getByTestId('ticket-bond')).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    // ? opens it again, and ? closes it.
    await page.keyboard.press('?');
    await expect(sheet).toBeVisible();
    await page.keyboard.press('?');
    await expect(sheet).toBeHidden();

    // Enter on a focused blotter row counters it (like a double-click); Esc closes the dialog.
    await ask.getByRole('gridcell').first().click();
    // The dialog loads the quote; closing it before that would cancel the load (a user may, a test should not).
    const loaded = page.waitForResponse((r) => r.url().endsWith(`/api/trade/eoi/${askId}/`) && r.request().method() === 'GET');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('form', { name: 'Counter' })).toBeVisible();
    expect((await loaded).ok()).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    const viewer = await (await browser.newContext()).newPage();
    await openDart(viewer, DEMO.viewer);
    await viewer.keyboard.press('?');
    const viewerSheet = sheetOf(viewer);
    await expect(viewerSheet).toBeVisible();
    await expect(viewerSheet).toContainText('Search bonds');
    await expect(viewerSheet).not.toContainText('Bid on the selected bond');
    await expect(viewerSheet).not.toContainText('Ask (sell) on the selected bond');
  });
});
