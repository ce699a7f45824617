/**
 * Inventory (issue 14): Demo Capital's dealer uploads a book of real bonds (a file with a bad row first: every
 * row error listed, nothing imported), sees it valued with the source of each valuation, groups it, edits a
 * valuation cost and sees the P&L change, offers a holding as a private run that Second Bank sees, and records
 * an external trade. Screenshots of the book in light and dark.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, openWorkspace, signIn } from './helpers';

/** 7.26% GS 2033, 7.18% GS 2033 (G-secs, ₹100 a bond) and an HDFC Bank NCD (₹1 L a bond). */
const GS_2033 = 'IN0020220151';
const GS_718_2033 = 'IN0020230085';
const HDFC_NCD = 'INE040A08955';
/** The book's own account, so rows of this spec are told apart from what settled trades of other specs booked. */
const ACCOUNT = 'E2E BOOK';
/** A size no other spec offers, so the private run is recognisable in Second Bank's list. */
const OFFER_SIZE = '7.77cr';
const OFFER_SHOWN = '₹7.77 Cr';

const book = (page: Page) => page.getByTestId('grid-inventory');
/** The grid's centre row of a holding (the ISIN column is in the centre; bond name and actions are pinned). */
const rowOf = (page: Page, isin: string) => book(page).getByRole('row').filter({ hasText: isin }).filter({ hasText: ACCOUNT });
const cellOf = (page: Page, isin: string, column: string) => rowOf(page, isin).locator(`[col-id="${column}"]`);

async function chooseFile(page: Page, name: string, content: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Upload your book' });
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: /File/ }).click();
  await (await chooser).setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
}

test('the book: upload, valuation with sources, valuation cost, a private-run offer Second Bank sees, an external trade', async ({
  page,
  browser,
  consoleGuard,
}) => {
  // The file with bad rows is refused with a 400, which the browser logs.
  consoleGuard.allow(/status of 400 .*\/api\/inventory\/upload\/\)$/);
  await signIn(page, DEMO.dealer);
  await page.goto('/inventory');
  await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
  const upload = page.getByRole('button', { name: 'Upload book' }).first();
  await expect(upload).toBeVisible();
  await upload.click();
  const dialog = page.getByRole('dialog', { name: 'Upload your book' });

  // A bad file: every bad row listed by row and column, nothing imported.
  await chooseFile(
    page,
    'bad-book.csv',
    [
      'isin,face_value,valuation_cost,date,account',
      `${GS_2033},10cr,99.5,,${ACCOUNT}`,
      `IN0000000000,1cr,100,,${ACCOUNT}`,
      `${HDFC_NCD},1.5L,abc,,`,
    ].join('\n'),
  );
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  const refused = dialog.getByTestId('inventory-upload-refused');
  await expect(refused).toContainText('Nothing was imported');
  const rowErrors = refused.getByRole('table', { name: 'Row errors' });
  await expect(rowErrors.getByRole('row').filter({ hasText: 'No bond with this ISIN.' })).toContainText('isin');
  await expect(rowErrors.getByRole('row').filter({ hasText: 'valuation_cost' })).toBeVisible();
  await dialog.screenshot({ path: 'test-results/screenshots/inventory-upload-errors.png' });

  // The good file: three real bonds.
  await chooseFile(
    page,
    'book.csv',
    [
      'isin,face_value,valuation_cost,date,account',
      `${GS_2033},10cr,99.5,,${ACCOUNT}`,
      `${HDFC_NCD},1cr,100.25,,${ACCOUNT}`,
      `${GS_718_2033},5cr,101,,${ACCOUNT}`,
    ].join('\n'),
  );
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByTestId('inventory-upload-summary')).toContainText('3 holdings imported');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Valued, with the source of each valuation and its age.
  for (const isin of [GS_2033, HDFC_NCD, GS_718_2033]) await expect(rowOf(page, isin)).toBeVisible();
  await expect(cellOf(page, GS_2033, 'face_value')).toHaveText('₹10 Cr');
  await expect(cellOf(page, GS_2033, 'source')).toHaveText(/^(NSE close|NSE OTC|MF valuation|Matrix) · \d+d$/);
  await expect(cellOf(page, GS_2033, 'market_value')).toHaveText(/₹[\d.,]+ Cr/);
  await expect(page.getByTestId('inventory-totals')).toContainText('Market value');
  await expect(page.getByTestId('inventory-cashflows')).toBeVisible();

  // Grouped by issuer: a group row with its subtotal, the totals row at the bottom.
  await page.getByText('Issuer', { exact: true }).click();
  await expect(book(page).getByRole('button', { name: 'Hide the holdings of Government of India' })).toBeVisible();
  await expect(book(page).getByText(/^Total · \d+ holdings?$/)).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.screenshot({ path: `test-results/screenshots/inventory-book-${theme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByText('No grouping', { exact: true }).click();

  // Edit the valuation cost: the unrealised P&L follows it.
  const before = (await cellOf(page, GS_2033, 'pnl').textContent()) ?? '';
  await page.getByRole('button', { name: `More actions on 7.26% GS 2033 (${ACCOUNT})` }).click();
  await page.getByRole('menuitem', { name: 'Edit valuation cost' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit valuation cost' });
  const cost = edit.getByRole('textbox', { name: 'Valuation cost (clean, per ₹100)' });
  await expect(cost).toHaveValue('99.5000');
  await cost.fill('90');
  await expect(edit.getByText(/^Unrealised P&L at this cost: \+₹/)).toBeVisible();
  await edit.getByRole('button', { name: 'Save valuation cost' }).click();
  await expect(edit).toBeHidden();
  await expect(cellOf(page, GS_2033, 'average_cost')).toHaveText('90.0000');
  await expect(cellOf(page, GS_2033, 'pnl')).not.toHaveText(before);
  await expect(cellOf(page, GS_2033, 'pnl')).toHaveText(/^\+₹[\d.,]+ (Cr|L)$/);

  // Offer part of the holding as a private run to Second Bank, who sees it live.
  const second = await openWorkspace(browser, DEMO.secondDealer);
  await page.getByRole('button', { name: `Offer 7.26% GS 2033 (${ACCOUNT})` }).click();
  const offer = page.getByRole('dialog', { name: /^Offer 7.26% GS 2033/ });
  await offer.getByText('Private run', { exact: true }).click();
  await offer.getByRole('textbox', { name: /^Face value/ }).fill(OFFER_SIZE);
  const picker = offer.getByRole('combobox', { name: 'Counterparties' });
  await picker.fill('cond Ba');
  await page
    .getByRole('listbox', { name: 'Counterparty search results' })
    .getByRole('option', { name: 'Second Bank', exact: true })
    .click();
  await expect(offer.getByTestId('counterparty-pill')).toHaveText('Second Bank');
  // The list stays open for more firms: a click outside it closes it.
  await offer.getByText(/^Held:/).click();
  await expect(page.getByRole('listbox', { name: 'Counterparty search results' })).toBeHidden();
  await offer.screenshot({ path: 'test-results/screenshots/inventory-offer.png' });
  await offer.getByRole('button', { name: 'Send private offer' }).click();
  await expect(offer).toBeHidden();
  const secondRow = second.getByTestId('grid-private-runs').getByRole('row').filter({ hasText: OFFER_SHOWN });
  await expect(secondRow).toBeVisible();
  await expect(secondRow).toContainText('Demo Capital');

  // An external trade: sell half the HDFC NCD holding.
  await page.getByRole('button', { name: `More actions on HDFC Bank Limited 7.70% NCD 16-May-2028 (${ACCOUNT})` }).click();
  await page.getByRole('menuitem', { name: 'Record external trade' }).click();
  const trade = page.getByRole('dialog', { name: 'Record external trade' });
  await expect(trade.getByRole('textbox', { name: 'ISIN' })).toHaveValue(HDFC_NCD);
  await trade.getByRole('textbox', { name: /^Face value/ }).fill('50L');
  await trade.getByRole('textbox', { name: /^Price/ }).fill('100.5');
  await trade.getByRole('textbox', { name: /^Counterparty/ }).fill('A bank outside Dart');
  await trade.getByRole('button', { name: 'Record sell' }).click();
  await expect(trade).toBeHidden();
  await expect(cellOf(page, HDFC_NCD, 'face_value')).toHaveText('₹50 L');

  await second.context().close();
});
