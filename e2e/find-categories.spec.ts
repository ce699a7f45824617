/**
 * Issue 17 §3: /find's filters come from `POST api/categories/` (the server's bond slice, BOND_IMPORT=slice):
 * each value shows its bond count; choosing a security type narrows the grid to it and the counts of the other
 * filters to what is left; a rating chosen by keyboard narrows the grid to that rating; a failed categories call
 * says so and Retry recovers. Screenshot: test-results/screenshots/find-categories.png (and -dark).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

test.use({ viewport: { width: 1440, height: 900 } });

const grid = (page: Page) => page.getByTestId('find-grid');
/** A cell of the grid row at a position of the list (AG Grid may keep DOM rows out of order). */
const cell = (page: Page, index: number, column: string): Locator => grid(page).locator(`[row-index="${index}"] [col-id="${column}"]`);
/** A filter option by its value, with its count after it (e.g. "G-Sec 1,234"). */
const option = (page: Page, value: string): Locator =>
  page.getByRole('option', { name: new RegExp(`^${value.replace(/[+()]/g, '\\$&')}\\s*[\\d,]+$`) });
const number = (text: string | undefined) => Number(text?.replace(/,/g, '') ?? NaN);
/** An option's count: the number it ends with ("A1+ 1,234" → 1234). */
const countOf = async (locator: Locator): Promise<number> => number(/(\d[\d,]*)$/.exec((await locator.textContent()) ?? '')?.[1]);
/** The grid's count ("1,234 bonds · …" → 1234). */
const gridCount = async (page: Page): Promise<number> =>
  number(/^([\d,]+) bonds/.exec((await page.getByTestId('find-count').textContent()) ?? '')?.[1]);
const bonds = (count: number) => new RegExp(`^${count.toLocaleString('en-IN')} bonds`);

test.describe('Find: filters from the categories call', () => {
  test('a security type and a rating narrow the grid; each value shows its count, updated by the other filters', async ({ page }) => {
    const categoriesCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/categories/')) categoriesCalls.push(request.postData() ?? '');
    });
    await page.goto('/find');
    await expect(cell(page, 0, 'display_name')).toBeVisible();
    await expect(page.getByTestId('find-count')).toHaveText(/^[\d,]+ bonds/);
    const everything = await gridCount(page);

    // Security type: the values and counts of the answer; G-Sec's count is the grid's count once chosen.
    const types = page.getByRole('combobox', { name: 'Security type' });
    await types.click();
    const gsec = option(page, 'G-Sec');
    await expect(gsec).toBeVisible();
    await expect(option(page, 'Bond/NCD')).toBeVisible();
    const gsecCount = await countOf(gsec);
    expect(gsecCount).toBeGreaterThan(10);
    expect(gsecCount).toBeLessThan(everything);
    await gsec.click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('find-count')).toHaveText(bonds(gsecCount));
    for (const index of [0, 1, 2]) {
      await expect(cell(page, index, 'security_type')).toHaveText('G-Sec');
      await expect(cell(page, index, 'credit_rating')).toHaveText('SOVEREIGN');
    }

    // The rating counts now count G-Secs only: SOVEREIGN, all of them; no AAA.
    const ratings = page.getByRole('combobox', { name: 'Rating' });
    await ratings.click();
    await expect(option(page, 'SOVEREIGN')).toHaveText(/[\d,]+$/);
    await expect.poll(() => countOf(option(page, 'SOVEREIGN'))).toBe(gsecCount);
    await expect(option(page, 'AAA')).toHaveCount(0);
    // The filtered grid with the rating counts open (light).
    await page.screenshot({ path: 'test-results/screenshots/find-categories.png', fullPage: true });
    expect(categoriesCalls.some((body) => body.includes('"security_type":["G-Sec"]'))).toBe(true);
    await page.keyboard.press('Escape');

    // Clear the type; choose AAA by keyboard in the rating filter: the grid shows AAA bonds only.
    await page.getByRole('button', { name: 'Clear filters (1)' }).click();
    await expect(page.getByTestId('find-count')).toHaveText(bonds(everything));
    await ratings.focus();
    await page.keyboard.type('AAA');
    const aaa = option(page, 'AAA');
    await expect(aaa).toBeVisible();
    const aaaCount = await countOf(aaa);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('find-count')).toHaveText(bonds(aaaCount));
    for (const index of [0, 1, 2]) await expect(cell(page, index, 'credit_rating')).toHaveText('AAA');
    // …and the security types are counted among AAA bonds: no G-Sec.
    await types.click();
    await expect(option(page, 'Bond/NCD')).toBeVisible();
    await expect(option(page, 'G-Sec')).toHaveCount(0);
    await page.keyboard.press('Escape');

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await types.click();
    await expect(option(page, 'Bond/NCD')).toBeVisible();
    await page.waitForTimeout(300);
    await page.screenshot({ path: 'test-results/screenshots/find-categories-dark.png', fullPage: true });
  });

  test('a failed categories call says so, and Retry brings the values', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/\/api\/categories\//);
    let fail = true;
    await page.route('**/api/categories/', (route) =>
      fail
        ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":"UNAVAILABLE","message":"Try again."}' })
        : route.fallback(),
    );
    await page.goto('/find');
    const alert = page.getByRole('alert').filter({ hasText: 'The filter values could not be loaded' });
    await expect(alert).toBeVisible();
    // The grid does not depend on the categories: it still lists bonds.
    await expect(cell(page, 0, 'display_name')).toBeVisible();
    fail = false;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(alert).toBeHidden();
    await page.getByRole('combobox', { name: 'Security type' }).click();
    await expect(option(page, 'G-Sec')).toBeVisible();
  });
});
