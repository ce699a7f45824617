/**
 * Market (issue 5) in two Chromium contexts against the real server and its bond slice: Demo
 * Capital's dealer posts a bid, Second Bank's dealer sees it appear live (no reload), counters,
 * the first accepts, and both see the deal. Then the workspace in light and dark.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { chooseTicketBond, DEMO, openWorkspace } from './helpers';

const HDFC_BOND = 'HDFC Bank Limited 7.78% NCD 27-Mar-2027';

const publicRuns = (page: Page) => page.getByTestId('grid-public-runs');

/** Posts a quote on the HDFC NCD from the ticket (the bond stays chosen after a post). */
async function postQuote(page: Page, side: 'Bid' | 'Ask', yieldPercent: string, size: string): Promise<void> {
  const ticket = page.getByRole('form', { name: 'New quote' });
  if (!(await ticket.getByTestId('ticket-bond').isVisible())) {
    await ticket.getByRole('searchbox', { name: 'Bond for the quote' }).fill('HDFC');
    await page.getByRole('option', { name: HDFC_BOND }).click();
  }
  await ticket
    .locator('label')
    .filter({ hasText: new RegExp(`^${side} \\(`) })
    .click();
  await ticket.getByRole('textbox', { name: /^Yield \(%\)/ }).fill(yieldPercent);
  await ticket.getByRole('textbox', { name: /^Face value/ }).fill(size);
  const posted = page.waitForResponse((r) => r.url().endsWith('/api/trade/eoi/') && r.request().method() === 'POST');
  await ticket.getByRole('button', { name: `Post ${side.toLowerCase()}` }).click();
  expect((await posted).status()).toBe(201);
}

test.describe('Market', () => {
  test('a bid appears live at the other firm, is countered, accepted, and both see the deal', async ({ browser }) => {
    const demo = await openWorkspace(browser, DEMO.dealer);
    const second = await openWorkspace(browser, DEMO.secondDealer);

    // Demo Capital posts a bid on the HDFC NCD by yield, ₹10 Cr (1,000 bonds of ₹1 L), T+1.
    const ticket = await chooseTicketBond(demo, 'HDFC', HDFC_BOND);
    const yieldBox = ticket.getByRole('textbox', { name: /^Yield \(%\)/ });
    await expect(yieldBox).toHaveValue(/^\d+\.\d{4}$/); // prefilled with the reference yield
    await yieldBox.fill('7.9');
    await ticket.getByRole('textbox', { name: /^Face value/ }).fill('0');
    await ticket.getByRole('button', { name: 'Post bid' }).click();
    await expect(ticket.getByText('Cannot be zero')).toBeVisible(); // the spec's message, before any call
    await ticket.getByRole('textbox', { name: /^Face value/ }).fill('10cr');
    const posted = demo.waitForResponse((r) => r.url().endsWith('/api/trade/eoi/') && r.request().method() === 'POST');
    await ticket.getByRole('button', { name: 'Post bid' }).click();
    const response = await posted;
    expect(response.status()).toBe(201);
    expect(response.request().headers()['idempotency-key']).toMatch(/^[\w-]{36}$/);
    await expect(publicRuns(demo).getByRole('gridcell', { name: HDFC_BOND, exact: true })).toBeVisible();

    // Second Bank sees it arrive without a reload, anonymously, at 7.9000%.
    const row = publicRuns(second).getByRole('row').filter({ hasText: HDFC_BOND });
    await expect(row).toBeVisible();
    await expect(row).toContainText('7.9000%');
    await expect(row).toContainText('₹10 Cr');
    await expect(row).toContainText('Anonymous');

    // Second Bank counters at 7.95 % for the whole ₹10 Cr.
    await row.getByRole('button', { name: `Counter the bid on ${HDFC_BOND}` }).click();
    const secondDialog = second.getByRole('dialog');
    const counterYield = secondDialog.getByRole('textbox', { name: /^Yield \(%\)/ });
    await counterYield.fill('7.95');
    await secondDialog.getByRole('button', { name: 'Send counter' }).click();
    const secondHistory = secondDialog.getByRole('table', { name: 'Negotiation history' });
    await expect(secondHistory.getByRole('row')).toHaveCount(2);
    await expect(secondHistory).toContainText('7.9500%');
    await expect(secondDialog.getByText('Waiting for the other side')).toBeVisible();

    // Demo Capital sees the counter live and accepts it.
    const item = demo.getByTestId('negotiation-item').first();
    await expect(item).toContainText('Your turn');
    await expect(item).toContainText('7.9500%');
    await item.click();
    const demoDialog = demo.getByRole('dialog');
    await expect(demoDialog.getByRole('table', { name: 'Negotiation history' })).toContainText('Counterparty');
    await demoDialog.getByRole('button', { name: /^Accept / }).click();
    await expect(demoDialog.getByTestId('negotiation-deal')).toContainText('Bought ₹10 Cr · 1,000 bonds');
    await expect(demoDialog.getByTestId('negotiation-deal')).toContainText('7.9500%');
    await demoDialog.getByRole('button').first().click(); // the modal's close button
    await expect(demo.getByTestId('deal-item').first()).toContainText('Bought');
    await expect(demo.getByTestId('deal-item').first()).toContainText(HDFC_BOND);

    // Second Bank sees the deal live too.
    await expect(secondDialog.getByTestId('negotiation-deal')).toContainText('₹10 Cr · 1,000 bonds');
    await second.keyboard.press('Escape');
    await expect(second.getByTestId('deal-item').first()).toContainText('₹10 Cr');
    await expect(second.getByTestId('deal-item').first()).toContainText(`Sold · ${HDFC_BOND}`);
    await expect(second.getByTestId('negotiation-item').first()).toContainText('Deal');

    // A reload keeps the deal and the negotiation (both lists are loaded from the server).
    await demo.reload();
    await expect(demo.getByTestId('live-status')).toHaveAttribute('data-status', 'connected');
    await expect(demo.getByTestId('deal-item').first()).toContainText(`Bought · ${HDFC_BOND}`);
    await expect(demo.getByTestId('deal-item').first()).toContainText('₹10 Cr · 1,000 bonds');
    await expect(demo.getByTestId('negotiation-item').first()).toContainText('Deal');

    // The matching engine: Second Bank's ask crosses Demo Capital's new bid; both accept the match.
    await postQuote(demo, 'Bid', '7.85', '5cr');
    await postQuote(second, 'Ask', '7.85', '5 Cr');
    const demoMatch = demo.getByTestId('cluster-item').first();
    const secondMatch = second.getByTestId('cluster-item').first();
    await expect(demoMatch).toContainText('Buy HDFC');
    await expect(secondMatch).toContainText('Sell HDFC');
    await demoMatch.getByRole('button', { name: 'Accept' }).click();
    await expect(demoMatch).toContainText('Waiting for the other side');
    await secondMatch.getByRole('button', { name: 'Accept' }).click();
    await expect(secondMatch).toContainText('Deal');
    await expect(demoMatch).toContainText('Deal');

    // Resting quotes on both sides that do not cross, for the blotter's picture.
    // ₹2,500 Cr and ₹1,000 Cr of the ₹1 L NCD.
    await postQuote(demo, 'Bid', '7.70', '2500cr');
    await postQuote(second, 'Ask', '7.60', '1,000 cr');
    await expect(publicRuns(demo).getByRole('row').filter({ hasText: '₹2,500 Cr' })).toBeVisible();
    await expect(publicRuns(demo).getByRole('row').filter({ hasText: '₹1,000 Cr' })).toBeVisible();

    // My quotes: only Demo Capital's own bid.
    const myQuotes = demo.getByRole('switch', { name: 'My quotes' });
    await myQuotes.focus();
    await demo.keyboard.press('Space');
    await expect(myQuotes).toBeChecked();
    await expect(publicRuns(demo).getByRole('row').filter({ hasText: '₹1,000 Cr' })).toHaveCount(0);
    await expect(publicRuns(demo).getByRole('row').filter({ hasText: '₹2,500 Cr' })).toBeVisible();
    await demo.keyboard.press('Space');
    await expect(myQuotes).not.toBeChecked();

    // Screenshots of the workspace with the market filled, light and dark.
    await demo.evaluate(() => window.scrollTo(0, 0));
    for (const theme of ['light', 'dark'] as const) {
      await demo.emulateMedia({ colorScheme: theme });
      await expect(demo.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await demo.waitForTimeout(400);
      await demo.screenshot({ path: `test-results/screenshots/market-dart-${theme}.png`, fullPage: true });
    }
    await second.screenshot({ path: 'test-results/screenshots/market-dart-second-light.png', fullPage: true });

    await demo.context().close();
    await second.context().close();
  });
});
