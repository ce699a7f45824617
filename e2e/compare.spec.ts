/**
 * The Find page's compare modal names each bond's yield source in words (issue 12 fix 7): it showed
 * the raw code "MF_VALUATION". Pictures in light and dark: test-results/screenshots/compare-*.png.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

interface Row {
  display_name: string;
  issuer_name: string | null;
  reference_source: string | null;
}

/** An issuer with two to five live bonds, one of them priced from mutual-fund valuations. */
async function issuerWithValuedBond(request: APIRequestContext): Promise<{ issuer: string; rows: Row[] }> {
  const byIssuer = new Map<string, Row[]>();
  for (let page = 1; page <= 20; page++) {
    const response = await request.post('/api/finstruments/', { data: { pagination: { page, page_size: 100 } } });
    expect(response.status()).toBe(200);
    const { results } = (await response.json()) as { results: Row[] };
    for (const row of results) if (row.issuer_name) byIssuer.set(row.issuer_name, [...(byIssuer.get(row.issuer_name) ?? []), row]);
    if (results.length < 100) break;
  }
  for (const [issuer, rows] of byIssuer) {
    if (rows.length >= 2 && rows.length <= 5 && rows.some((row) => row.reference_source === 'MF_VALUATION')) return { issuer, rows };
  }
  throw new Error('no issuer with 2–5 bonds, one valued from mutual-fund portfolios, in the imported slice');
}

test.describe('Compare bonds', () => {
  test('the compare modal shows the yield source in words, never the code', async ({ page, request }) => {
    const { issuer, rows } = await issuerWithValuedBond(request);
    await signIn(page, DEMO.dealer);
    await page.goto('/find');
    await page.getByRole('textbox', { name: 'Name, ISIN or issuer' }).fill(issuer);
    const grid = page.getByTestId('find-grid');
    await expect(page.getByTestId('find-count')).toHaveText(new RegExp(`^${rows.length} bonds`));
    const boxes = grid.getByRole('checkbox');
    await expect(boxes).toHaveCount(rows.length);
    for (let index = 0; index < rows.length; index++) await boxes.nth(index).check();
    await page.getByRole('button', { name: /^Compare/ }).click();

    const table = page.getByRole('dialog').getByRole('table', { name: 'Bond comparison' });
    const sources = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Yield source' }) });
    await expect(sources).toContainText('Mutual-fund valuation');
    await expect(sources).not.toContainText(/[A-Z]{2,}_[A-Z]/);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await page.waitForTimeout(300);
      await page.getByRole('dialog').screenshot({ path: `test-results/screenshots/compare-${theme}.png` });
    }
  });
});
