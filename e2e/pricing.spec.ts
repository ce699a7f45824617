/**
 * The security page's price calculator (issue 12 fix 3): no figure for an input it rejects or an
 * empty field — the consideration and the other value are shown only for a value that was priced —
 * and the reference line names its price source in words.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

const HDFC_ISIN = 'INE040A08567';

async function openCalculator(page: Page) {
  await signIn(page, DEMO.dealer);
  await page.goto(`/security/${HDFC_ISIN}`);
  const total = page.getByTestId('consideration-total');
  await expect(total).toHaveText(/^₹[\d,]+\.\d{2}$/);
  return { total, consideration: page.getByTestId('consideration'), info: page.getByTestId('pricing-info') };
}

test.describe('Price calculator', () => {
  test('shows no consideration for a price it rejected or an empty field', async ({ page }) => {
    const { total, consideration, info } = await openCalculator(page);
    // The Yield/Price select: Mantine's SegmentedControl hides its radios behind their labels.
    await page
      .locator('label')
      .filter({ hasText: /^Price$/ })
      .click();
    await expect(page.getByRole('radio', { name: 'Price', exact: true })).toBeChecked();
    const priceBox = page.getByRole('textbox', { name: /^Clean price/ });
    await expect(priceBox).toHaveValue(/^\d+\.\d{4}$/);

    // 300 is above the 250 limit: the message, and no figure at all (not the reference price's).
    await priceBox.fill('300');
    await expect(page.getByText('Should be less than 250')).toBeVisible();
    await expect(consideration).toBeHidden();
    await expect(info).toHaveText('Yield —');
    // Still none once the debounced request (without the rejected price) has been answered.
    await page.waitForTimeout(800);
    await expect(consideration).toBeHidden();
    await expect(info).toHaveText('Yield —');
    const calculator = page.getByRole('region', { name: 'Price calculator' });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await page.waitForTimeout(300);
      await calculator.screenshot({ path: `test-results/screenshots/calculator-rejected-${theme}.png` });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // An empty field: required, and no figure either.
    await priceBox.fill('');
    await expect(page.getByText('Price is required')).toBeVisible();
    await page.waitForTimeout(800);
    await expect(consideration).toBeHidden();
    await expect(info).toHaveText('Yield —');

    // A valid price: the consideration for that price comes back.
    const priced = page.waitForResponse(
      (response) => response.url().includes('/api/v1/finstrument/') && (response.request().postData() ?? '').includes('"price":101'),
    );
    await priceBox.fill('101');
    await priced;
    await expect(total).toHaveText(/^₹[\d,]+\.\d{2}$/);
    await expect(info).toHaveText(/^Yield \d+\.\d{4}%$/);

    // The size is face value (issue 12 §1), ₹5 Cr to start; a size of 0 is refused: no consideration for it.
    const size = calculator.getByRole('textbox', { name: /^Face value/ });
    await expect(size).toHaveValue('5cr');
    await size.fill('0');
    await expect(calculator.getByText('Cannot be zero')).toBeVisible();
    await expect(consideration).toBeHidden();
    await size.fill('2.5cr');
    await expect(calculator.getByTestId('face-value-preview')).toHaveText(/^₹2\.5 Cr · [\d,]+ bonds?$/);
    await expect(total).toHaveText(/^₹[\d,]+\.\d{2}$/);
  });

  test('names the reference price source in words, never a code', async ({ page }) => {
    await openCalculator(page);
    const reference = page.getByText(/^Reference: /);
    await expect(reference).toBeVisible();
    await expect(reference).not.toHaveText(/[A-Z]{2,}_[A-Z]/);
  });
});
