/**
 * Issue 12 §5 fix 7, /surveillance: a compliance officer reads the audit trail in words (no raw action
 * codes, no UUIDs), with people and firms by name, filters it by user and action, and downloads the
 * filtered trail as CSV.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ACTION_CODE = /\b(auth|chat|quote|deal|user|client|invite|negotiation|cluster)\.[a-z_]+\b/;

test.describe('surveillance: the readable audit trail', () => {
  test('a compliance officer reads names and words, filters by user and action, and exports the CSV', async ({ browser, page }) => {
    // Demo Capital's dealer signs in and opens the workspace (a chat session too) in a browser of their own.
    const dealer = await (await browser.newContext()).newPage();
    await signIn(dealer, DEMO.dealer);
    await expect(dealer.getByRole('heading', { name: 'Workspace', level: 1 })).toBeVisible();
    await dealer.context().close();

    await signIn(page, DEMO.compliance);
    await expect(page).toHaveURL(/\/surveillance$/);
    const trail = page.getByRole('table', { name: 'Audit trail' });
    await expect(trail).toBeVisible();
    const dealerSignIn = trail.getByRole('row').filter({ hasText: 'Arjun Mehta' }).filter({ hasText: 'Signed in' }).first();
    await expect(dealerSignIn).toBeVisible();
    await expect(dealerSignIn).toContainText('Demo Capital');
    // The date-time column reads as a date and a time, not an ISO stamp.
    await expect(dealerSignIn.getByRole('cell').first()).toHaveText(/^\d{2}[/-]\w{2,3}[/-]\d{2,4} \d{2}:\d{2}:\d{2}$/);
    // Nothing on the page is an id or a raw action code.
    const text = await trail.innerText();
    expect(text).not.toMatch(UUID);
    expect(text).not.toMatch(ACTION_CODE);
    expect(text).not.toContain('chat.session_issued');

    // Filter by user: only Arjun Mehta's rows remain.
    const userFilter = page.getByRole('combobox', { name: 'User' });
    await userFilter.click();
    await userFilter.fill('Arjun');
    await page.getByRole('option', { name: 'Arjun Mehta' }).click();
    await expect(trail.getByRole('row').filter({ hasText: 'Vikram Iyer' })).toHaveCount(0);
    const rows = trail.locator('tbody tr');
    await expect(rows.first()).toContainText('Arjun Mehta');
    const userRows = await rows.count();
    for (let i = 0; i < userRows; i++) await expect(rows.nth(i)).toContainText('Arjun Mehta');

    // And by action: sign-in and security only.
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Sign-in and security' }).click();
    await expect(rows.first()).toContainText('Signed in');
    const signInRows = await rows.count();
    for (let i = 0; i < signInRows; i++) await expect(rows.nth(i)).toContainText(/Signed in|Signed out|Sign-in|password/);
    await expect(trail.getByText('Chat opened for this sign-in')).toHaveCount(0);

    // The CSV is the filtered trail: header, then Arjun Mehta's sign-ins in words.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^dart-audit-trail-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('When (IST),User,Email,Firm,Action,On,Name,Details,IP address');
    // Every filtered event, not only the page shown (the suite signs this dealer in more than a page's worth).
    const counted = /^([\d,]+) events/.exec(await page.getByTestId('audit-count').innerText());
    const total = Number(counted?.[1]?.replace(/,/g, ''));
    expect(total).toBeGreaterThanOrEqual(signInRows);
    expect(lines.length).toBe(total + 1);
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},Arjun Mehta,dealer@demo\.dart,Demo Capital,/);
    expect(lines.some((line) => line.includes(',Signed in,'))).toBe(true);
    expect(csv).not.toMatch(UUID);
    await expect(page.getByText('Export ready')).toBeVisible();

    // Clearing the filters brings everyone back.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(trail.getByRole('row').filter({ hasText: 'Vikram Iyer' }).first()).toBeVisible();
  });

  test("a compliance officer reads the firm's trades, view only, from the folded Trades section", async ({ page }) => {
    await signIn(page, DEMO.compliance);
    await expect(page).toHaveURL(/\/surveillance$/);
    const trades = page.getByRole('button', { name: 'Show trades' });
    await expect(trades).toHaveAttribute('aria-expanded', 'false');
    await trades.click();
    await expect(page.getByText('Orders and procurement orders', { exact: true })).toBeVisible();
    // The blotter loads (a refused list would show its error and fail the console guard).
    await expect(page.getByTestId('transactions-count')).toHaveText(/^[\d,]+ orders?$/);
    await page.getByRole('button', { name: 'Hide trades' }).click();
    await expect(page.getByText('Orders and procurement orders', { exact: true })).toBeHidden();
  });

  test('a date range that ends before it starts is refused on its field, not sent', async ({ page }) => {
    await signIn(page, DEMO.compliance);
    await page.getByRole('textbox', { name: 'From', exact: true }).fill('2025-08-02');
    await page.getByRole('textbox', { name: 'To', exact: true }).fill('2025-08-01');
    await expect(page.getByText('The end date must be on or after the start date.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await page.getByRole('textbox', { name: 'To', exact: true }).fill('2025-08-03');
    await expect(page.getByText('No events match these filters')).toBeVisible();
  });
});
