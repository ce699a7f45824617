/**
 * Issue 12 §5 fix 11 in Chromium: dates keep the spec's mm/dd/yy by default; a view-only user picks
 * dd/mm/yy, then DD-Mon-YYYY, in the profile's "Display & sounds", and the bond page (maturity, issue and
 * listing dates, the name's embedded maturity) and the Find grid's date columns follow it; the choice
 * is saved on the server, so a second browser signed in as the same user sees it too.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, signIn } from './helpers';

const HDFC_ISIN = 'INE040A08567';
const HDFC_NAME = 'HDFC Bank Limited 7.78% NCD 27-Mar-2027';

test.use({ viewport: { width: 1440, height: 900 } });

/** Puts the user's preferences back to the defaults through the API, so no other spec sees ours. */
async function resetPreferences(request: APIRequestContext, email: string): Promise<void> {
  const token = await request.post('/api/token/', { data: { email, password: DEMO_PASSWORD } });
  expect(token.ok()).toBeTruthy();
  const { access } = (await token.json()) as { access: string };
  const reset = await request.patch('/api/profile/display-preferences/', {
    data: { date_format: 'mm/dd/yy', sounds_enabled: true },
    headers: { authorization: `Bearer ${access}` },
  });
  expect(reset.ok()).toBeTruthy();
}

const section = (page: Page) => page.getByRole('region', { name: 'Display & sounds' });

async function chooseFormat(page: Page, label: RegExp): Promise<void> {
  await page.goto('/profile');
  await section(page).getByRole('radio', { name: label }).check();
  await expect(page.locator('[data-toast-group="default"]').getByText('Date format saved')).toBeVisible();
  await expect(section(page).getByRole('radio', { name: label })).toBeChecked();
}

/** The value shown under a fact's label in the bond page's header. */
const fact = (page: Page, label: string) => page.locator(`xpath=//p[normalize-space(.)='${label}']/following-sibling::*[1]`).first();

async function expectBondPage(page: Page, dates: { maturity: string; name: string }): Promise<void> {
  await page.goto(`/security/${HDFC_ISIN}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(dates.name);
  await expect(fact(page, 'Maturity')).toContainText(dates.maturity);
}

async function expectFindGrid(page: Page, maturity: string, name: string): Promise<void> {
  await page.goto('/find');
  await page.getByRole('textbox', { name: 'Name, ISIN or issuer' }).fill(HDFC_ISIN);
  await expect(page.getByTestId('find-count')).toHaveText(/^1 bond/);
  const row = page.getByTestId('find-grid').locator('[row-index="0"]');
  await expect(row.locator('[col-id="maturity_date"]')).toHaveText(maturity);
  await expect(row.locator('[col-id="display_name"]').getByRole('link')).toHaveText(name);
}

test.describe('Date format preference', () => {
  test.afterEach(async ({ request }) => {
    await resetPreferences(request, DEMO.viewer);
  });

  test('a view-only user switches mm/dd/yy → dd/mm/yy → DD-Mon-YYYY and the bond page and Find grid follow', async ({ page, browser }) => {
    test.setTimeout(120_000);
    await signIn(page, DEMO.viewer);
    // The spec's default.
    await page.goto('/profile');
    await expect(section(page).getByRole('radio', { name: /^mm\/dd\/yy/ })).toBeChecked();
    await expect(page.getByTestId('date-format-preview')).toContainText('11/25/26');
    await expectBondPage(page, { maturity: '03/27/27', name: HDFC_NAME });
    await expectFindGrid(page, '03/27/27', HDFC_NAME);

    await chooseFormat(page, /^dd\/mm\/yy/);
    await expect(page.getByTestId('date-format-preview')).toContainText('25/11/26');
    await expect(page.getByTestId('date-format-preview')).toContainText('GS STRIPS 02/01/36');
    await expectBondPage(page, { maturity: '27/03/27', name: 'HDFC Bank Limited 7.78% NCD 27/03/27' });
    await expectFindGrid(page, '27/03/27', 'HDFC Bank Limited 7.78% NCD 27/03/27');

    // Saved on the server: another browser (another machine) signed in as the same user shows it.
    const elsewhere = await (await browser.newContext()).newPage();
    await signIn(elsewhere, DEMO.viewer);
    await expectBondPage(elsewhere, { maturity: '27/03/27', name: 'HDFC Bank Limited 7.78% NCD 27/03/27' });
    await elsewhere.context().close();

    await chooseFormat(page, /^DD-Mon-YYYY/);
    await expect(page.getByTestId('date-format-preview')).toContainText('25-Nov-2026');
    await expectBondPage(page, { maturity: '27-Mar-2027', name: HDFC_NAME });
    await expectFindGrid(page, '27-Mar-2027', HDFC_NAME);
    // And after a reload (the cached copy and the server agree).
    await page.reload();
    await expect(page.getByTestId('find-grid').locator('[row-index="0"] [col-id="maturity_date"]')).toHaveText(
      /^\d{2}-[A-Z][a-z]{2}-\d{4}$/,
    );
  });
});
