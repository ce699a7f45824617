/**
 * Issue 15 §1, /client/profile: the organisation's details with every §5 rule and message in the browser (the
 * contracts' schemas), a good save that survives a reload, and a read-only view for everyone but ops admins.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

const detailsForm = (page: Page) => page.getByRole('form', { name: 'Organisation details' });
const field = (form: Locator, label: string) => form.getByRole('textbox', { name: label, exact: true });

async function screenshots(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.waitForTimeout(350); // transitions settle before the picture
    await page.screenshot({ path: `test-results/screenshots/${name}-${theme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function chooseState(page: Page, form: Locator, index: number, state: string) {
  await form.getByRole('combobox', { name: 'State' }).nth(index).click();
  await page.getByRole('option', { name: state, exact: true }).click();
}

test.describe('organisation details', () => {
  test("bad input shows the spec's messages; a good save persists across a reload; a viewer only reads", async ({ page, browser }) => {
    await signIn(page, DEMO.opsAdmin);
    await page.goto('/client/profile');
    const form = detailsForm(page);
    await expect(field(form, 'PAN')).toHaveValue('AABCD1234E');

    await field(form, 'PAN').fill('ABCDE1234');
    await field(form, 'GST Registration Number').fill('27AABCD1234E1');
    await field(form, 'Business email').fill('treasury@gmail.com');
    await field(form, 'Address line 1').first().fill('One BKC, G Block');
    await field(form, 'City').first().fill('Mumbai');
    await field(form, 'Pincode').first().fill('4000');
    await field(form, 'Account number').fill('12345');
    await field(form, 'IFSC').fill('HDFC1000001');
    await field(form, 'BO ID').fill('12081600');
    await field(form, 'DP ID').fill('IN30');
    await field(form, 'Client Id').fill('1023');
    await field(form, 'Settlement cut-off time').fill('25:00');
    await form.getByRole('button', { name: 'Save details' }).click();
    for (const message of [
      'Please enter a valid PAN (10 Digits).',
      'Please enter a valid GST Registration Number.',
      'Enter a valid business email',
      'Please choose a state.',
      'Please enter a valid Pincode',
      'Account number should have at least 10 digits.',
      'Please enter a valid IFSC Code (11 Digits).',
      'BO ID should have exactly 16 digits.',
      'DP ID should have exactly 8 digits.',
      'Client Id should have exactly 8 digits.',
      'Please enter valid time in HH:MM 24-hour format',
    ])
      await expect(form.getByText(message, { exact: true })).toBeVisible();
    await screenshots(page, 'client-profile-errors');

    await field(form, 'PAN').fill('AABCD1234E');
    await field(form, 'GST Registration Number').fill('27AABCD1234E1Z5');
    await field(form, 'Business email').fill('treasury@democapital.in');
    await field(form, 'Website').fill('https://www.democapital.in');
    await chooseState(page, form, 0, 'Maharashtra');
    await field(form, 'Pincode').first().fill('400051');
    await field(form, 'Address line 1').nth(1).fill('Plot 5, Sector 18');
    await field(form, 'City').nth(1).fill('Leh');
    await chooseState(page, form, 1, 'Ladakh');
    await field(form, 'Pincode').nth(1).fill('194101');
    await field(form, 'Account number').fill('50100123456789');
    await field(form, 'IFSC').fill('hdfc0000060');
    await field(form, 'Bank name').fill('HDFC Bank');
    await field(form, 'BO ID').fill('1208160000012345');
    await field(form, 'DP ID').fill('IN300214');
    await field(form, 'Client Id').fill('10234567');
    await field(form, 'Settlement cut-off time').fill('14:30');
    await form.getByRole('button', { name: 'Save details' }).click();
    await expect(page.getByText('Organisation details saved')).toBeVisible();

    await page.reload();
    const saved = detailsForm(page);
    await expect(field(saved, 'GST Registration Number')).toHaveValue('27AABCD1234E1Z5');
    await expect(field(saved, 'Website')).toHaveValue('democapital.in');
    await expect(saved.getByRole('combobox', { name: 'State' }).nth(1)).toHaveValue('Ladakh');
    await expect(field(saved, 'IFSC')).toHaveValue('HDFC0000060');
    await expect(field(saved, 'Account number')).toHaveValue('50100123456789');
    await expect(field(saved, 'Settlement cut-off time')).toHaveValue('14:30');
    await screenshots(page, 'client-profile');

    // A viewer reads the same details without changing them; the account number is masked to its last four digits.
    const context = await browser.newContext();
    const viewer = await context.newPage();
    await signIn(viewer, DEMO.viewer);
    await viewer.goto('/client/profile');
    const readOnly = detailsForm(viewer);
    await expect(viewer.getByText("Only your organisation's OpsAdmin can change these details.")).toBeVisible();
    await expect(field(readOnly, 'GST Registration Number')).toHaveValue('27AABCD1234E1Z5');
    await expect(field(readOnly, 'PAN')).toHaveAttribute('readonly', '');
    await expect(field(readOnly, 'Account number')).toHaveValue('XXXXXXXXXX6789');
    await expect(readOnly.getByRole('button', { name: 'Save details' })).toHaveCount(0);
  });
});
