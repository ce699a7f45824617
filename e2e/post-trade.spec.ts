/**
 * Post-trade end to end (issue 13): a deal between Demo Capital (buyer) and Second Bank (seller) becomes a ticket
 * at once; Second Bank sends its side to Demo Brokers, confirms the price, both firms accept the consideration with
 * their custodians, and the trade is reported to the (simulated) NSE reporting platform and settled DVP-I at the
 * (simulated) NSCCL, every step seen live in three browsers. Demo Capital's back office then finds the procurement
 * order settled in /client/transactions and downloads its contract note.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, openWorkspace, signIn } from './helpers';

/** An HDFC Bank NCD of the e2e bond slice (₹1 L a bond; stamp duty on the buyer). */
const HDFC_NCD = 'INE040A08955';

async function bearer(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const response = await request.post('/api/token/', { data: { email, password: DEMO_PASSWORD } });
  expect(response.ok()).toBeTruthy();
  return { authorization: `Bearer ${((await response.json()) as { access: string }).access}` };
}

/** A deal through the market API: Demo Capital bids ₹5 L, Second Bank counters at 7.80 %, Demo Capital accepts. */
async function makeDeal(request: APIRequestContext): Promise<string> {
  const buyer = await bearer(request, DEMO.dealer);
  const seller = await bearer(request, DEMO.secondDealer);
  const bond = await request.get(`/api/finstrument/${HDFC_NCD}/`);
  expect(bond.ok()).toBeTruthy();
  const finstrumentId = ((await bond.json()) as { id: number }).id;
  const bid = await request.post('/api/trade/eoi/', {
    headers: buyer,
    data: { quote_type: 'BID', quantum: 500_000, finstrument_id: finstrumentId, yield_stored: 0.0785, validity: 60 },
  });
  expect(bid.status(), await bid.text()).toBe(201);
  const quoteId = ((await bid.json()) as { id: string }).id;
  const counter = await request.post('/api/eoi/add-negotiation/', { headers: seller, data: { quote_id: quoteId, yield_stored: 0.078 } });
  expect(counter.status(), await counter.text()).toBe(200);
  const negotiationId = ((await counter.json()) as { id: string }).id;
  const accepted = await request.post('/api/eoi/add-negotiation/', {
    headers: buyer,
    data: { quote_id: quoteId, negotiation_id: negotiationId, action: 'accept' },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  const dealId = ((await accepted.json()) as { deal: { id: string } }).deal.id;
  // The ticket was written with the deal: POST answers it (200), never a second one.
  const ticket = await request.post('/api/chatter/trade/', { headers: buyer, data: { deal_id: dealId } });
  expect(ticket.status(), await ticket.text()).toBe(200);
  return ((await ticket.json()) as { number: string }).number;
}

const ticketRow = (page: Page, number: string) => page.locator(`[data-testid="ticket-row"][data-ticket="${number}"]`);
/** Opens the ticket from its row by its number (the row's middle may be one of its action buttons). */
const openTicket = (page: Page, number: string) => ticketRow(page, number).getByText(number, { exact: true }).click();

async function showTicketing(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Ticketing' }).click();
  await expect(page.getByTestId('panel-ticketing')).toBeVisible();
}

/** Accepts from the ticket's row, or from its open dialog when `where` is that dialog. */
async function acceptConsideration(page: Page, number: string, custodian: string, where: Locator = ticketRow(page, number)): Promise<void> {
  await where.getByRole('button', { name: 'Accept consideration' }).click();
  const form = page.getByRole('form', { name: `Accept the consideration of ${number}` });
  await form.getByRole('combobox', { name: 'Custodian' }).fill(custodian.split(' ')[0]!);
  await page.getByRole('option', { name: custodian }).click();
  await form.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(form).toBeHidden();
}

test('a deal is ticketed, priced, accepted, reported and settled, live at both firms and the broker; the back office gets the contract note', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const buyer = await openWorkspace(browser, DEMO.dealer);
  const seller = await openWorkspace(browser, DEMO.secondDealer);
  const broker = await openWorkspace(browser, DEMO.broker);
  for (const page of [buyer, seller, broker]) await showTicketing(page);

  const number = await makeDeal(request);
  // Live: the ticket reaches both firms without a reload, waiting for the seller's price.
  for (const page of [buyer, seller]) await expect(ticketRow(page, number).getByTestId('ticket-state')).toHaveText('Awaiting price');
  await expect(ticketRow(buyer, number)).toContainText('Buy');
  await expect(ticketRow(seller, number)).toContainText('Sell');
  await expect(ticketRow(seller, number)).toContainText('₹5 L');

  // Second Bank hands its side to Demo Brokers, who sees the ticket appear.
  await ticketRow(seller, number).getByRole('button', { name: 'Send to broker' }).click();
  const toBroker = seller.getByRole('form', { name: `Send ${number} to a broker` });
  await toBroker.getByRole('combobox', { name: 'Broker' }).fill('Demo');
  await seller
    .getByRole('option', { name: /Demo Brokers/ })
    .first()
    .click();
  await toBroker.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(toBroker).toBeHidden();
  await expect(ticketRow(broker, number).getByTestId('ticket-state')).toHaveText('Awaiting price');

  // The seller confirms the agreed price; everyone sees it priced.
  await ticketRow(seller, number).getByRole('button', { name: 'Confirm price' }).click();
  for (const page of [buyer, seller, broker]) await expect(ticketRow(page, number).getByTestId('ticket-state')).toHaveText('Priced');

  // The buyer opens the ticket: terms, consideration breakdown and the stamped history so far.
  await openTicket(buyer, number);
  const dialog = buyer.getByTestId('ticket-dialog');
  await expect(dialog.getByTestId('ticket-number')).toHaveText(number);
  await expect(dialog.getByTestId('ticket-consideration')).toContainText('Stamp duty');
  await expect(dialog.getByTestId('ticket-stamp-label').first()).toHaveText('Received');
  await buyer.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Both firms accept the consideration, each with its custodian: confirmed, then reported and settled.
  await acceptConsideration(buyer, number, 'HDFC Bank Ltd.');
  // Each of the three opens the ticket before the seller's acceptance and watches the stamps arrive live (a settled
  // ticket leaves the open list, so a row clicked after settlement, 3 s after the report, would be gone).
  for (const page of [seller, buyer, broker]) await openTicket(page, number);
  await acceptConsideration(seller, number, 'Kotak Mahindra Bank Ltd.', seller.getByTestId('ticket-dialog'));
  for (const page of [seller, buyer, broker]) {
    const stamps = page.getByTestId('ticket-dialog').getByTestId('ticket-stamp-label');
    await expect(stamps.filter({ hasText: 'Final' })).toHaveCount(1);
    await expect(stamps.filter({ hasText: 'Reported' })).toHaveCount(1, { timeout: 20_000 });
    await expect(stamps.filter({ hasText: /^Settled$/ })).toHaveCount(1, { timeout: 30_000 });
  }
  await expect(seller.getByTestId('ticket-dialog').getByTestId('ticket-orders')).toContainText('Settled');

  // Demo Capital's back office: the procurement order, settled, and its contract note.
  const backOffice = await (await browser.newContext()).newPage();
  await signIn(backOffice, DEMO.backOffice);
  await backOffice.goto('/client/transactions');
  const grid = backOffice.getByTestId('grid-transactions');
  const row = grid.getByRole('row').filter({ hasText: HDFC_NCD }).filter({ hasText: 'Settled' }).first();
  await expect(row).toContainText('PRO-');
  const download = backOffice.waitForEvent('download');
  await row.getByRole('button', { name: /^Contract note of PRO-/ }).click();
  const file = await download;
  const dir = path.join('test-results', 'post-trade');
  mkdirSync(dir, { recursive: true });
  const saved = path.join(dir, 'contract-note.pdf');
  await file.saveAs(saved);
  const pdf = readFileSync(saved);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(2_000);
  await backOffice.screenshot({ path: path.join(dir, 'transactions.png'), fullPage: true });
  await seller.screenshot({ path: path.join(dir, 'ticket-dialog.png') });
});
