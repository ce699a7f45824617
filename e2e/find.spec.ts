/**
 * Find (issue 4) in Chromium against the server's bond slice (BOND_IMPORT=slice): search, the
 * security page's pricing flow, matured bonds in search, the IM download, the /find grid, and
 * screenshots of /find and a security page in light and dark.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

const SEARCH_PLACEHOLDER = 'Search for Bonds by Name, ISIN, Issuer...';
const HDFC_BOND = 'HDFC Bank Limited 7.78% NCD 27-Mar-2027';

const headerSearch = (page: Page) => page.getByRole('banner').getByPlaceholder(SEARCH_PLACEHOLDER);
/** Clicks a segmented-control choice by its visible label (the radio input itself is visually hidden). */
async function segment(page: Page, label: string): Promise<void> {
  await page
    .locator('label')
    .filter({ hasText: new RegExp(`^${label.replace('+', '\\+')}$`) })
    .click();
  await expect(page.getByRole('radio', { name: label, exact: true })).toBeChecked();
}

test.describe('Find', () => {
  test('search HDFC, open a bond, switch yield/price, change settlement and download the IM', async ({ page }) => {
    await signIn(page, DEMO.dealer);
    const search = headerSearch(page);
    await search.click();
    // /dart has a second bond search (the quote ticket's), whose closed dropdown stays in the DOM.
    await expect(page.getByText('Start typing to search...').filter({ visible: true })).toBeVisible();
    await search.fill('HDFC');
    await page.getByRole('option', { name: HDFC_BOND }).click();
    await expect(page).toHaveURL(/\/security\/\d+$/);
    await expect(page.getByRole('heading', { name: HDFC_BOND, level: 1 })).toBeVisible();
    await expect(page.getByText('INE040A08567', { exact: true })).toBeVisible();

    // Yield mode first: the field holds the reference yield, the info line the clean price.
    const info = page.getByTestId('pricing-info');
    const yieldBox = page.getByRole('textbox', { name: /^Yield \(%\)/ });
    await expect(yieldBox).toHaveValue(/^\d+\.\d{4}$/);
    await expect(info).toHaveText(/^Clean price \d+\.\d{4}$/);

    // The select button: Price shows the clean price in the field and the yield on the info line.
    await segment(page, 'Price');
    const priceBox = page.getByRole('textbox', { name: /^Clean price/ });
    await expect(priceBox).toHaveValue(/^\d+\.\d{4}$/);
    await expect(info).toHaveText(/^Yield \d+\.\d{4}%$/);

    // Typing a value below the threshold switches back to yield and re-prices.
    const repriced = page.waitForResponse(
      (response) => response.url().includes('/api/v1/finstrument/') && (response.request().postData() ?? '').includes('"yield":0.075'),
    );
    await priceBox.fill('7.5');
    await expect(yieldBox).toHaveValue('7.5');
    await repriced;
    await expect(info).toHaveText(/^Clean price \d+\.\d{4}$/);
    const priceAtYield = await info.textContent();
    await yieldBox.fill('');
    await expect(page.getByText('Yield is required')).toBeVisible();
    await yieldBox.fill('7.5');
    await expect(page.getByText('Yield is required')).toBeHidden();
    await expect(info).toHaveText(priceAtYield ?? '');

    // T+1 → T+0: a new settlement date and a new consideration.
    const settlementDate = page.getByTestId('settlement-date');
    const total = page.getByTestId('consideration-total');
    await expect(total).toHaveText(/^₹[\d,]+\.\d{2}$/);
    const dateBefore = (await settlementDate.textContent()) ?? '';
    const totalBefore = (await total.textContent()) ?? '';
    await segment(page, 'T+0');
    await expect(settlementDate).not.toHaveText(dateBefore);
    await expect(total).not.toHaveText(totalBefore);
    await expect(page.getByRole('table', { name: 'Consideration' })).toContainText('Stamp duty');

    // The IM: hint, a real PDF, and the success toast.
    const imButton = page.getByRole('button', { name: 'Download IM' });
    await imButton.hover();
    await expect(page.getByText('You can download IM directly from here.')).toBeVisible();
    const downloading = page.waitForEvent('download');
    await imButton.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect(page.getByText('Congratulations! You have downloaded the IM successfully')).toBeVisible();
  });

  test('matured bonds are labelled and cannot be selected; no match says so', async ({ page }) => {
    await page.goto('/find');
    const search = headerSearch(page);
    await search.fill('hdfc 2024');
    const matured = page.getByRole('option', { name: /^\(MATURED\) / }).first();
    await expect(matured).toBeVisible();
    await expect(matured).toHaveAttribute('aria-disabled', 'true');
    await matured.click({ force: true });
    await expect(page).toHaveURL(/\/find$/);
    await search.fill('zzqqxx');
    await expect(page.getByText('No bonds found')).toBeVisible();
  });

  test('the Find grid pages over the universe, filters and opens a bond', async ({ page }) => {
    await page.goto('/find');
    const grid = page.getByTestId('find-grid');
    await expect(grid.getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByTestId('find-count')).toHaveText(/^[\d,]+ bonds/);
    await page.getByRole('textbox', { name: 'Name, ISIN or issuer' }).fill('INE040A08567');
    await expect(page.getByTestId('find-count')).toHaveText(/^1 bonds/);
    await grid.getByRole('link', { name: HDFC_BOND }).click();
    await expect(page.getByRole('heading', { name: HDFC_BOND, level: 1 })).toBeVisible();
  });

  test('screenshots of /find and a security page in light and dark', async ({ page }) => {
    await signIn(page, DEMO.dealer);
    for (const [name, path, ready] of [
      ['find-grid', '/find', async () => expect(page.getByTestId('find-grid').getByRole('row').nth(1)).toBeVisible()],
      ['security', '/security/INE040A08567', async () => expect(page.getByTestId('consideration-total')).toBeVisible()],
    ] as const) {
      await page.goto(path);
      await ready();
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
        await page.waitForTimeout(500);
        await page.screenshot({ path: `test-results/screenshots/${name}-${theme}.png`, fullPage: true });
      }
    }
  });
});
