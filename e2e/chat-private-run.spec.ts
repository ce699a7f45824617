/**
 * Private runs sent into a chat (spec "private runs (quotes sent from chats)") in two Chromium
 * contexts against the real server: Demo Capital's dealer (Arjun Mehta, on /chat) opens "Send a private
 * run" from the keyboard, the quote form is addressed to Second Bank (fixed), and sends a bid; both see
 * the card live; Second Bank's dealer (on /dart, the compact chat panel) also has it in the private
 * runs panel and counters it from the card: the market's negotiation dialog opens for that quote.
 *
 * A group of their own keeps this apart from the direct chat of chat.spec.ts (which expects to create
 * it). Second Bank's dealer is found and matched by firm only (account.spec.ts renames her for a while).
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, resetWorkspaceLayout, signIn } from './helpers';

const HDFC_BOND = 'HDFC Bank Limited 7.78% NCD 27-Mar-2027';
const GROUP = 'Private runs desk';
const SECOND_BANK = 'Second Bank';

async function openAs(browser: Browser, email: string, path: '/chat' | '/dart'): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  await page.goto(path);
  // The default layout, Chat in front of Build Network: the layout is saved per user, and another spec
  // (chat-phone, build-network) may have left Build Network in front of Chat.
  if (path === '/dart') await resetWorkspaceLayout(page);
  await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
  return page;
}

const channelRow = (page: Page, title: string): Locator =>
  page.getByTestId('chat-channel').filter({ has: page.getByTestId('chat-channel-title').getByText(title, { exact: true }) });
const cardSelector = (quoteId: string) => `[data-testid="chat-private-run"][data-quote-id="${quoteId}"]`;
const runCard = (page: Page, quoteId: string): Locator => page.getByTestId('chat-messages').locator(cardSelector(quoteId));
/** The whole message (bubble, time) holding a card. */
const runMessage = (page: Page, quoteId: string): Locator =>
  page.getByTestId('chat-message').filter({ has: page.locator(cardSelector(quoteId)) });

/** Light and dark pictures of one part of the page. */
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

test('a private run sent into a chat: the card live on both sides, in the private runs, and countered from the card', async ({
  browser,
}) => {
  test.slow(); // two browsers, a quote and a negotiation
  const arjun = await openAs(browser, DEMO.dealer, '/chat');
  const second = await openAs(browser, DEMO.secondDealer, '/dart');
  const secondPanel = second.getByTestId('workspace-chat');

  // Arjun starts a group with Second Bank's dealer; she accepts from the workspace's chat panel.
  await arjun.getByTestId('chat-new').click();
  const newChat = arjun.getByRole('dialog', { name: 'New chat' });
  await newChat.getByText('Group', { exact: true }).click();
  await newChat.getByRole('textbox', { name: 'Name' }).fill(GROUP);
  await newChat.getByRole('textbox', { name: 'Add people' }).fill('Kulkarni');
  await newChat.getByTestId('chat-user-option').filter({ hasText: SECOND_BANK }).click();
  await newChat.getByTestId('chat-create-submit').click();
  await expect(newChat).toBeHidden();
  await expect(arjun.getByTestId('chat-conversation-title')).toHaveText(GROUP);
  await channelRow(second, GROUP).click();
  await secondPanel.getByTestId('chat-invitation').getByRole('button', { name: 'Accept' }).click();
  await expect(secondPanel.getByTestId('chat-invitation')).toBeHidden();

  // "Send a private run" is in the composer and reachable from the keyboard (Shift+Tab from the text box).
  const composer = arjun.getByRole('textbox', { name: 'Message' });
  await composer.focus();
  await composer.press('Shift+Tab');
  const openButton = arjun.getByRole('button', { name: 'Send a private run' });
  await expect(openButton).toBeFocused();
  await openButton.press('Enter');
  const dialog = arjun.getByRole('dialog', { name: 'Private run to this chat' });
  await expect(dialog).toBeVisible();
  const form = dialog.getByRole('form', { name: 'Private run' });

  // The counterparties are the chat's other firm, read-only; nothing is chosen here.
  await expect(form.getByRole('list', { name: 'Sent privately to' }).getByRole('listitem')).toHaveText([SECOND_BANK]);
  await expect(form.getByRole('combobox', { name: /Counterparties/ })).toHaveCount(0);

  // Submitting with no bond: the ticket's own message, before any call.
  await form.getByRole('button', { name: 'Send private bid' }).click();
  await expect(form.getByText('Choose a bond.')).toBeVisible();

  await form.getByRole('searchbox', { name: 'Bond for the quote' }).fill('HDFC');
  await arjun.getByRole('option', { name: HDFC_BOND }).click();
  await expect(form.getByTestId('ticket-bond')).toHaveText(HDFC_BOND);
  await form.getByRole('textbox', { name: /^Yield \(%\)/ }).fill('7.91');
  await form.getByRole('textbox', { name: /^Face value/ }).fill('5cr');
  await shoot(arjun, 'chat-private-run-form', dialog);

  const created = arjun.waitForResponse((r) => r.url().endsWith('/api/trade/eoi/') && r.request().method() === 'POST');
  await form.getByRole('button', { name: 'Send private bid' }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  const sentTo = (response.request().postDataJSON() as { counterparties: string[] }).counterparties;
  expect(sentTo).toHaveLength(1);
  const quoteId = ((await response.json()) as { id: string }).id;
  await expect(dialog).toBeHidden();

  // Arjun's card: side, bond, ISIN, yield (4 dp), price, quantum, settlement, expiry; his own, no Counter.
  const mine = runCard(arjun, quoteId);
  await expect(mine).toBeVisible();
  await expect(mine.getByTestId('chat-private-run-side')).toHaveText('Bid');
  await expect(mine.getByTestId('chat-private-run-bond')).toHaveText(HDFC_BOND);
  await expect(mine.getByTestId('chat-private-run-isin')).toHaveText(/^IN[A-Z0-9]{10}$/);
  await expect(mine.getByTestId('chat-private-run-yield')).toHaveText('7.9100%');
  await expect(mine.getByTestId('chat-private-run-price')).toHaveText(/^\d{2,3}\.\d{4}$/);
  await expect(mine.getByTestId('chat-private-run-quantum')).toHaveText('₹5 Cr · 500 bonds');
  await expect(mine.getByTestId('chat-private-run-settlement')).toHaveText(/^\d{2}\/\d{2}\/\d{2}$/);
  await expect(mine.getByTestId('chat-private-run-expiry')).toHaveText(/^\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
  await expect(mine.getByTestId('chat-private-run-own')).toHaveText('Your private run');
  await expect(mine.getByRole('button', { name: 'Counter' })).toHaveCount(0);
  // A card is not editable: Up arrow in the empty composer does not pick it up.
  await composer.focus();
  await composer.press('ArrowUp');
  await expect(arjun.getByTestId('chat-editing')).toHaveCount(0);

  // Second Bank's dealer sees the same card live in the workspace's chat panel…
  const theirs = runCard(second, quoteId);
  await expect(theirs).toBeVisible();
  await expect(theirs.getByTestId('chat-private-run-yield')).toHaveText('7.9100%');
  await expect(theirs.getByTestId('chat-private-run-quantum')).toHaveText('₹5 Cr · 500 bonds');
  await expect(theirs.getByTestId('chat-private-run-price')).toHaveText(
    (await mine.getByTestId('chat-private-run-price').textContent()) ?? '',
  );
  await expect(theirs.getByTestId('chat-private-run-own')).toHaveCount(0);
  // …and in the private runs panel, from Demo Capital.
  const row = second.getByTestId('grid-private-runs').locator(`[role="row"][row-id="${quoteId}"]`);
  await expect(row.first()).toBeVisible();
  await expect(second.getByTestId('grid-private-runs')).toContainText('Demo Capital');

  // The whole message (bubble and time) on the full page and in the workspace's compact panel.
  await shoot(arjun, 'chat-private-run-card-sender', runMessage(arjun, quoteId));
  await shoot(second, 'chat-private-run-card-receiver', runMessage(second, quoteId));

  // Counter on the card opens the market's negotiation dialog for that quote.
  const quoteLoaded = second.waitForResponse((r) => r.url().endsWith(`/api/trade/eoi/${quoteId}/`) && r.request().method() === 'GET');
  await theirs.getByRole('button', { name: 'Counter' }).click();
  expect((await quoteLoaded).status()).toBe(200);
  const negotiation = second.getByRole('dialog').filter({ has: second.getByTestId('negotiation-quote') });
  await expect(negotiation).toBeVisible();
  await expect(negotiation).toContainText(`Bid · ${HDFC_BOND}`);
  await expect(negotiation.getByTestId('negotiation-quote')).toContainText('7.9100%');
  await expect(negotiation.getByTestId('negotiation-quote')).toContainText('₹5 Cr · 500 bonds');
  await expect(negotiation.getByRole('form', { name: 'Counter' })).toBeVisible();

  await arjun.context().close();
  await second.context().close();
});
