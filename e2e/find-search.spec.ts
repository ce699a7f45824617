/**
 * Issue 12 §5 fixes 1 and 2 in Chromium against the server's bond slice (BOND_IMPORT=slice): /find's filter
 * finds what the header search finds, in the same order ("hdfc 2030" — the filter's own placeholder —,
 * "7.18 GS 2033", "HDFC 2033" showed 0 bonds before); the default grid starts with a live listed bond that
 * has a price; "Include matured" off hides the perpetual dated 02-Feb-2015; "SOVEREIGN" fits its column at
 * 1440 px.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

const SEARCH_PLACEHOLDER = 'Search for Bonds by Name, ISIN, Issuer...';
const PERPETUAL_2015 = 'INE028A08075';

test.use({ viewport: { width: 1440, height: 900 } });

const headerSearch = (page: Page) => page.getByRole('banner').getByPlaceholder(SEARCH_PLACEHOLDER);
const filter = (page: Page) => page.getByRole('textbox', { name: 'Name, ISIN or issuer' });
const grid = (page: Page) => page.getByTestId('find-grid');
/** The grid row at a position of the list (AG Grid may keep DOM rows out of order). */
const gridRow = (page: Page, index: number): Locator =>
  grid(page)
    .locator(`[row-index="${index}"]`)
    .filter({ has: page.locator('[col-id="display_name"]') });
const nameCell = (page: Page, index: number): Locator => grid(page).locator(`[row-index="${index}"] [col-id="display_name"]`);

/** The header search's options for a query (as the dropdown lists them), after the debounce settles. */
async function headerOptions(page: Page, query: string): Promise<string[]> {
  const search = headerSearch(page);
  await search.fill(query);
  const options = page.getByRole('listbox', { name: 'Bond search results' }).getByRole('option');
  await expect(options.first()).toBeVisible();
  const labels = await options.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''));
  await search.fill('');
  return labels;
}

test.describe('Find: one search and a sensible default list', () => {
  test('the filter finds what the header search finds, in the same order', async ({ page }) => {
    await page.goto('/find');
    await expect(gridRow(page, 0)).toBeVisible();
    for (const query of ['hdfc 2030', '7.18 GS 2033', 'HDFC 2033']) {
      const heard = (await headerOptions(page, query)).filter((label) => !label.startsWith('(MATURED) '));
      expect(heard.length, query).toBeGreaterThan(0);
      await filter(page).fill(query);
      await expect(page.getByTestId('find-count'), query).toHaveText(new RegExp(`^${heard.length} bonds`));
      for (const [index, label] of heard.slice(0, 5).entries())
        await expect(nameCell(page, index).getByRole('link'), `${query} #${index}`).toHaveText(label);
    }
    await filter(page).fill('7.18 GS 2033');
    await expect(nameCell(page, 0).getByRole('link')).toHaveText('7.18% GS 2033');
    await filter(page).fill('zzqqxx');
    await expect(page.getByTestId('find-count')).toHaveText(/^0 bonds/);
  });

  test('the default list starts with a live listed bond with a price; matured ones only on request', async ({ page }) => {
    await page.goto('/find');
    await expect(gridRow(page, 0)).toBeVisible();
    for (const index of [0, 1, 2]) {
      const row = gridRow(page, index);
      await expect(row.locator('[col-id="bond_yield"]')).not.toHaveText('NA');
      await expect(row.locator('[col-id="exchanges"]')).not.toHaveText('Unlisted');
      await expect(nameCell(page, index)).not.toHaveText(/^\((MATURED|UNLISTED)\) /);
    }
    // The unlisted perpetual dated 02/02/15: matured, so hidden until "Include matured bonds" is on.
    await filter(page).fill(PERPETUAL_2015);
    await expect(page.getByTestId('find-count')).toHaveText(/^0 bonds/);
    await page.getByRole('switch', { name: 'Include matured bonds' }).click();
    await expect(page.getByTestId('find-count')).toHaveText(/^1 bonds/);
    await expect(nameCell(page, 0).getByRole('link')).toHaveText(/^\(MATURED\) BANK OF BARODA 9\.48% NCD 02-Feb-2015$/);
  });

  test('"SOVEREIGN" and the other ratings fit their column at 1440 px; long types show on hover', async ({ page }) => {
    await page.goto('/find');
    await filter(page).fill('7.18 GS 2033');
    await expect(page.getByTestId('find-count')).toHaveText(/^1 bonds/);
    const rating = gridRow(page, 0).locator('[col-id="credit_rating"]');
    await expect(rating).toHaveText('SOVEREIGN');
    // Each cell's text against its content box (inside the padding): no ellipsis. Headers likewise.
    const fits = (cell: Locator) =>
      cell.evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const style = getComputedStyle(element);
        const content = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return { text: range.getBoundingClientRect().width, content };
      });
    for (const column of [
      'isin',
      'security_type',
      'coupon_rate',
      'maturity_date',
      'credit_rating',
      'bond_yield',
      'face_value',
      'exchanges',
    ]) {
      const size = await fits(gridRow(page, 0).locator(`[col-id="${column}"]`));
      expect(size.text, column).toBeGreaterThan(0);
      expect(size.text, column).toBeLessThanOrEqual(size.content);
    }
    const headers = grid(page).locator('.ag-header-cell-text').filter({ hasText: /\S/ });
    await expect(headers.first()).toBeVisible();
    expect(await headers.count()).toBe(10);
    for (const header of await headers.all()) {
      const overflow = await header.evaluate((element) => ({ name: element.textContent, cut: element.scrollWidth > element.clientWidth }));
      expect(overflow.cut, `header ${overflow.name}`).toBe(false);
    }
    await expect(gridRow(page, 0).locator('[col-id="security_type"] span[title="G-Sec"]')).toBeVisible();
    // No horizontal scroll bar: every column is on screen at 1440 px.
    const overflow = await grid(page)
      .locator('.ag-body-horizontal-scroll-viewport')
      .evaluate((viewport) => viewport.scrollWidth - viewport.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
  });
});
