/**
 * Chat presence pushed live (issue 6): Arjun Mehta (dealer@demo.dart) starts a chat with Dart's
 * support desk (support@dart.in, chat staff, shown under the product name); the conversation's
 * online status follows the support user's chat sessions without a reload, and goes offline only
 * after the offline delay once their last tab is gone.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

/** `CHAT_LIMITS.presenceOfflineDelayMs` of packages/contracts (the e2e specs import nothing of ours). */
const OFFLINE_DELAY_MS = 5000;

async function openChatAs(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  await page.goto('/chat');
  await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
  return page;
}

test('a chat member goes online and offline live: the header and the members dot follow their sessions', async ({ browser }) => {
  test.slow(); // two browsers and the offline delay
  const arjun = await openChatAs(browser, DEMO.dealer);
  await arjun.getByTestId('chat-new').click();
  const dialog = arjun.getByRole('dialog', { name: 'New chat' });
  await dialog.getByRole('textbox', { name: 'Search people' }).fill('Support');
  // Staff appear under the product name, with their firm.
  const option = dialog.getByTestId('chat-user-option').filter({ hasText: 'Dart' });
  await expect(option).toHaveCount(1);
  await option.click();
  await expect(dialog).toBeHidden();
  await expect(arjun.getByTestId('chat-conversation-title')).toHaveText('Dart');
  const status = arjun.getByTestId('chat-conversation-status');
  await expect(status).toHaveText('Offline');

  // Support opens chat in another browser: Arjun's view says Online without a reload.
  const support = await openChatAs(browser, DEMO.support);
  await expect(status).toHaveText('Online');
  await arjun.getByTestId('chat-members-button').click();
  const supportMember = arjun.getByTestId('chat-member').filter({ hasText: 'Dart' });
  await expect(supportMember).toBeVisible();
  await expect(supportMember).toHaveAttribute('data-connection-status', 'online');
  await arjun.keyboard.press('Escape');

  // A reload is a reconnect within the offline delay: no flap.
  await support.reload();
  await expect(support.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
  await expect(status).toHaveText('Online');

  // Support closes the browser: Offline once the delay has passed.
  const closedAt = Date.now();
  await support.context().close();
  await expect(status).toHaveText('Offline', { timeout: OFFLINE_DELAY_MS + 10_000 });
  expect(Date.now() - closedAt).toBeGreaterThanOrEqual(OFFLINE_DELAY_MS - 500);
  await arjun.getByTestId('chat-members-button').click();
  await expect(supportMember).toHaveAttribute('data-connection-status', 'offline');
});
