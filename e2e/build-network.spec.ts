/**
 * The Build Network panel (issue 15 §1, "the Build Network panel opens a chat with a counterparty"): Demo Brokers'
 * dealer (Farhan) has sent Second Bank a private run that Second Bank's dealer countered and he rejected (made
 * through the API, so the stats have something to measure); in the /dart workspace he finds Second Bank under
 * "Firms I trade with" with its response rate and hit rate, clicks Chat and the direct chat with Second Bank's
 * dealer opens in the Chat panel; Private run opens the quote ticket with Second Bank as its counterparty, and OTO
 * RFQ opens Raise RFQ one-to-one to Second Bank.
 *
 * Farhan and Second Bank's dealer share a direct chat in chat-phone.spec too (it accepts one that already
 * exists); chat.spec's own direct chats (Arjun's) are untouched.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, openWorkspace } from './helpers';

const HDFC_NCD = 'INE040A08955';
const SECOND_BANK = 'Second Bank';

async function signedIn(request: APIRequestContext, email: string) {
  const { access } = (await (await request.post('/api/token/', { data: { email, password: DEMO_PASSWORD } })).json()) as { access: string };
  const headers = { Authorization: `Bearer ${access}` };
  const session = (await (await request.get('/api/session/', { headers })).json()) as { client_id: string };
  return { headers, clientId: session.client_id };
}

/** A private run from Farhan to Second Bank, countered by Second Bank and rejected by Farhan, then withdrawn. */
async function tradeWithSecondBank(request: APIRequestContext): Promise<void> {
  const farhan = await signedIn(request, DEMO.broker);
  const second = await signedIn(request, DEMO.secondDealer);
  const bond = (await (await request.get(`/api/finstrument/${HDFC_NCD}/`)).json()) as { id: number };
  const run = await request.post('/api/trade/eoi/', {
    headers: farhan.headers,
    data: {
      quote_type: 'ASK',
      quantum: 500_000,
      finstrument_id: bond.id,
      yield_stored: 0.08,
      validity: 60,
      counterparties: [second.clientId],
    },
  });
  expect(run.status(), await run.text()).toBe(201);
  const quoteId = ((await run.json()) as { id: string }).id;
  const counter = await request.post('/api/eoi/add-negotiation/', {
    headers: second.headers,
    data: { quote_id: quoteId, yield_stored: 0.0812 },
  });
  expect(counter.status(), await counter.text()).toBe(200);
  const negotiationId = ((await counter.json()) as { id: string }).id;
  const rejected = await request.post('/api/eoi/add-negotiation/', {
    headers: farhan.headers,
    data: { quote_id: quoteId, negotiation_id: negotiationId, action: 'reject' },
  });
  expect(rejected.status(), await rejected.text()).toBe(200);
  const closed = await request.put(`/api/trade/d/eoi/${quoteId}/close/`, { headers: farhan.headers });
  expect(closed.status(), await closed.text()).toBe(200);
}

async function shoot(page: Page, name: string, part: Locator): Promise<void> {
  await page.mouse.move(0, 0); // no hover tooltips in the picture
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.waitForTimeout(350);
    await part.screenshot({ path: `test-results/screenshots/${name}-${theme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('the Build Network panel shows Second Bank with its stats, opens a chat with its dealer, a private run and an OTO RFQ to it', async ({
  browser,
  request,
}) => {
  test.slow(); // a negotiation through the API, then the workspace
  await tradeWithSecondBank(request);
  const page = await openWorkspace(browser, DEMO.broker);
  await page.getByRole('tab', { name: 'Build Network' }).click();
  const panel = page.getByTestId('network-panel');
  await panel.getByRole('textbox', { name: 'Search firms and people' }).fill('Second');

  const trading = panel.getByRole('region', { name: 'Firms I trade with' });
  const row = trading.getByTestId('network-firm').filter({ has: page.getByText(SECOND_BANK, { exact: true }) });
  await expect(row).toBeVisible();
  // Every request to Second Bank was answered (its counter); every negotiation with it ended in a reject.
  await expect(row.getByTestId('network-stat-response')).toHaveText('Response 100%');
  await expect(row.getByTestId('network-stat-hit')).toHaveText('Hit 0%');
  await expect(row.getByTestId('network-stat-median')).toContainText(/Median (< )?\d+ s/);
  await expect(row.getByTestId('network-stat-held')).toContainText('Held/pulled');
  await shoot(page, 'build-network', panel);
  const dealer = (await row.getByTestId('network-contact').textContent())?.trim() ?? '';
  expect(dealer).not.toBe('');

  // Chat: the direct chat with Second Bank's dealer opens in the Chat panel.
  await row.getByRole('button', { name: `Chat with ${SECOND_BANK}` }).click();
  const chat = page.getByTestId('workspace-chat');
  await expect(page.getByRole('tab', { name: 'Chat' })).toHaveAttribute('aria-selected', 'true');
  await expect(chat.getByTestId('chat-conversation-title')).toHaveText(dealer);

  // Private run: the quote ticket comes forward with Second Bank chosen as its counterparty.
  await page.getByRole('tab', { name: 'Build Network' }).click();
  await row.getByRole('button', { name: `Private run to ${SECOND_BANK}` }).click();
  const ticket = page.getByRole('form', { name: 'New quote' });
  await expect(ticket).toBeVisible();
  await expect(ticket.getByText(SECOND_BANK, { exact: true })).toBeVisible();
  // With a counterparty chosen the ticket sends privately rather than posting to the market.
  await expect(ticket.getByRole('button', { name: 'Send private bid' })).toBeVisible();

  // OTO RFQ: Raise RFQ opens one-to-one with Second Bank as the participant (every demo firm takes NSE and BSE RFQs).
  await page.getByRole('tab', { name: 'Build Network' }).click();
  await row.getByRole('button', { name: `OTO RFQ to ${SECOND_BANK}` }).click();
  const raise = page.getByRole('dialog', { name: 'Raise RFQ' });
  await expect(raise.getByRole('radio', { name: 'One to one (OTO)' })).toBeChecked();
  await expect(raise.getByText(SECOND_BANK, { exact: true })).toBeVisible();
  await raise.press('Escape');
  await expect(raise).toBeHidden();
  await page.context().close();
});
