/**
 * Chat message edit and delete (issue 6) in two Chromium contexts against the real server: Arjun
 * (dealer@demo.dart) edits and deletes his own messages from the keyboard and from a message's menu,
 * and Neha (dealer@second.dart) sees each change live. Also the header's Chat link and its unread
 * badge. A group of their own keeps these tests apart from the direct chat of chat.spec.ts.
 */
import type { Browser, Locator, Page, WebSocketRoute } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

const NEHA = 'Neha Kulkarni';

async function openAs(browser: Browser, email: string, path: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  await page.goto(path);
  await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
  return page;
}

const composer = (page: Page): Locator => page.getByRole('textbox', { name: 'Message' });
const messages = (page: Page): Locator => page.getByTestId('chat-messages');
const messageRow = (page: Page, text: string): Locator => messages(page).getByTestId('chat-message').filter({ hasText: text });
const channelRow = (page: Page, title: string): Locator =>
  page.getByTestId('chat-channel').filter({ has: page.getByTestId('chat-channel-title').getByText(title, { exact: true }) });

async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(messages(page).getByTestId('chat-message-text').getByText(text, { exact: true })).toBeVisible();
  await expect(composer(page)).toHaveValue('');
}

/** Arjun creates a group with Neha and she accepts it: both have it open. */
async function groupWithNeha(arjun: Page, neha: Page, name: string): Promise<void> {
  await arjun.getByTestId('chat-new').click();
  const dialog = arjun.getByRole('dialog', { name: 'New chat' });
  await dialog.getByText('Group', { exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('textbox', { name: 'Add people' }).fill('Neha');
  await dialog.getByTestId('chat-user-option').filter({ hasText: NEHA }).click();
  await dialog.getByTestId('chat-create-submit').click();
  await expect(dialog).toBeHidden();
  await expect(arjun.getByTestId('chat-conversation-title')).toHaveText(name);
  await channelRow(neha, name).click();
  await neha.getByTestId('chat-invitation').getByRole('button', { name: 'Accept' }).click();
  await expect(neha.getByTestId('chat-invitation')).toBeHidden();
}

test.describe('Chat: edit and delete', () => {
  test('edits by Up arrow and by the menu, Escape cancels, deletes after asking; the other member sees it all live', async ({
    browser,
  }) => {
    const arjun = await openAs(browser, DEMO.dealer, '/chat');
    const neha = await openAs(browser, DEMO.secondDealer, '/chat');
    await groupWithNeha(arjun, neha, 'Edit desk');

    await send(arjun, 'Bid 7.10 for 5 Cr.');
    await expect(messageRow(neha, 'Bid 7.10 for 5 Cr.')).toBeVisible();
    // Not mine: no actions on Neha's side.
    await expect(messageRow(neha, 'Bid 7.10 for 5 Cr.').getByTestId('chat-message-actions')).toHaveCount(0);

    // Up arrow in the empty composer edits my last message; Enter saves.
    await composer(arjun).press('ArrowUp');
    await expect(arjun.getByTestId('chat-editing')).toBeVisible();
    await expect(composer(arjun)).toHaveValue('Bid 7.10 for 5 Cr.');
    await expect(composer(arjun)).toBeFocused();
    await expect(messageRow(arjun, 'Bid 7.10 for 5 Cr.')).toHaveAttribute('data-editing', 'true');
    await composer(arjun).fill('Bid 7.12 for 5 Cr.');
    await messageRow(arjun, 'Bid 7.10 for 5 Cr.').hover(); // the actions show on hover
    await arjun.getByTestId('chat-full').screenshot({ path: 'test-results/screenshots/chat-editing-light.png' });
    await composer(arjun).press('Enter');
    await expect(arjun.getByTestId('chat-editing')).toHaveCount(0);
    await expect(composer(arjun)).toHaveValue('');
    const edited = messageRow(arjun, 'Bid 7.12 for 5 Cr.');
    await expect(edited.getByTestId('chat-message-edited')).toHaveText('(edited)');
    await expect(messageRow(arjun, 'Bid 7.10')).toHaveCount(0);

    // Neha sees the edit live, marked as edited.
    const nehaEdited = messageRow(neha, 'Bid 7.12 for 5 Cr.');
    await expect(nehaEdited.getByTestId('chat-message-text')).toHaveText('Bid 7.12 for 5 Cr.');
    await expect(nehaEdited.getByTestId('chat-message-edited')).toHaveText('(edited)');
    await expect(messageRow(neha, 'Bid 7.10')).toHaveCount(0);

    // With a draft in the composer: Edit from the message's menu, then Escape cancels and the draft is back.
    await composer(arjun).fill('half-typed draft');
    await composer(arjun).press('ArrowUp'); // not empty: Up arrow only moves the caret
    await expect(arjun.getByTestId('chat-editing')).toHaveCount(0);
    await edited.hover();
    await edited.getByTestId('chat-message-actions').click();
    await arjun.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(composer(arjun)).toHaveValue('Bid 7.12 for 5 Cr.');
    await expect(composer(arjun)).toBeFocused();
    await composer(arjun).fill('Bid 9.99 (never saved)');
    await composer(arjun).press('Escape');
    await expect(arjun.getByTestId('chat-editing')).toHaveCount(0);
    await expect(composer(arjun)).toHaveValue('half-typed draft');
    await expect(messageRow(arjun, 'Bid 7.12 for 5 Cr.')).toBeVisible();
    await expect(messages(neha)).not.toContainText('never saved');
    await composer(arjun).fill('');

    // Neha replies; Arjun's Up arrow still edits his own last message, not hers.
    await send(neha, 'Offer 7.14.');
    await expect(messageRow(arjun, 'Offer 7.14.')).toBeVisible();
    await composer(arjun).press('ArrowUp');
    await expect(composer(arjun)).toHaveValue('Bid 7.12 for 5 Cr.');
    await composer(arjun).press('Escape');
    await expect(composer(arjun)).toHaveValue('');

    // Delete: the menu asks first; both sides then show the placeholder, and the list's last line too.
    await send(arjun, 'Wrong ISIN, ignore.');
    const wrong = messageRow(neha, 'Wrong ISIN, ignore.');
    await expect(wrong).toBeVisible();
    const mine = messageRow(arjun, 'Wrong ISIN, ignore.');
    const position = await mine.getAttribute('data-position');
    await mine.hover();
    await mine.getByTestId('chat-message-actions').click();
    await arjun.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = arjun.getByRole('dialog', { name: 'Delete this message?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(mine).toBeVisible();
    await mine.hover();
    await mine.getByTestId('chat-message-actions').click();
    await arjun.getByRole('menuitem', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();

    const arjunDeleted = messages(arjun).locator(`[data-position="${position}"]`);
    await expect(arjunDeleted).toHaveAttribute('data-deleted', 'true');
    await expect(arjunDeleted.getByTestId('chat-message-deleted')).toHaveText('This message was deleted');
    await expect(arjunDeleted.getByTestId('chat-message-actions')).toHaveCount(0);
    const nehaDeleted = messages(neha).locator(`[data-position="${position}"]`);
    await expect(nehaDeleted.getByTestId('chat-message-deleted')).toHaveText('This message was deleted');
    await expect(messages(neha)).not.toContainText('Wrong ISIN');
    await expect(channelRow(neha, 'Edit desk')).toContainText('This message was deleted');
    await expect(channelRow(arjun, 'Edit desk')).toContainText('You: This message was deleted');
    // A deleted message is not what Up arrow edits: the earlier one is.
    await composer(arjun).press('ArrowUp');
    await expect(composer(arjun)).toHaveValue('Bid 7.12 for 5 Cr.');
    await composer(arjun).press('Escape');

    // After a reload the server's state is the same: edited marker and deleted placeholder.
    await neha.reload();
    await expect(neha.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
    await channelRow(neha, 'Edit desk').click();
    await expect(messageRow(neha, 'Bid 7.12 for 5 Cr.').getByTestId('chat-message-edited')).toBeVisible();
    await expect(messages(neha).locator(`[data-position="${position}"]`).getByTestId('chat-message-deleted')).toBeVisible();

    await arjun.context().close();
    await neha.context().close();
  });

  test('edits and deletes made while the other member was disconnected show once the chat reconnects', async ({ browser }) => {
    const arjun = await openAs(browser, DEMO.dealer, '/chat');
    // Neha's chat socket runs through a route that can cut it, and refuse new ones, on demand; it
    // records the frames both ways.
    const context = await browser.newContext();
    const neha = await context.newPage();
    let cut = false;
    const live: Array<{ page: WebSocketRoute; server: WebSocketRoute }> = [];
    const sent: Array<Record<string, unknown>> = [];
    const received: Array<Record<string, unknown>> = [];
    await neha.routeWebSocket(/\/ws\/chat\/$/, async (page) => {
      if (cut) return page.close({ code: 4000, reason: 'network down (test)' });
      const server = page.connectToServer();
      page.onMessage((frame) => {
        sent.push(JSON.parse(String(frame)) as Record<string, unknown>);
        server.send(frame);
      });
      server.onMessage((frame) => {
        received.push(JSON.parse(String(frame)) as Record<string, unknown>);
        page.send(frame);
      });
      live.push({ page, server });
    });
    await signIn(neha, DEMO.secondDealer);
    await neha.goto('/chat');
    await expect(neha.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
    await groupWithNeha(arjun, neha, 'Reconnect desk');
    await send(arjun, 'Price 101.25 for the 2031s.');
    await send(arjun, 'Typo: 10.125');
    await expect(messageRow(neha, 'Typo: 10.125')).toBeVisible();
    const deletedPosition = await messageRow(neha, 'Price 101.25').getAttribute('data-position');

    cut = true;
    for (const { page, server } of live.splice(0)) {
      await server.close();
      await page.close({ code: 4000, reason: 'network down (test)' });
    }
    await expect(neha.getByTestId('chat-status')).toHaveAttribute('data-connected', 'false');

    // Meanwhile Arjun edits one and deletes the other: Neha's socket misses both events.
    await composer(arjun).press('ArrowUp');
    await composer(arjun).fill('Correction: 101.25');
    await composer(arjun).press('Enter');
    await expect(messageRow(arjun, 'Correction: 101.25').getByTestId('chat-message-edited')).toBeVisible();
    const first = messageRow(arjun, 'Price 101.25 for the 2031s.');
    await first.hover();
    await first.getByTestId('chat-message-actions').click();
    await arjun.getByRole('menuitem', { name: 'Delete' }).click();
    await arjun.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(messages(arjun).locator(`[data-position="${deletedPosition}"]`)).toHaveAttribute('data-deleted', 'true');
    await expect(messageRow(neha, 'Typo: 10.125')).toBeVisible(); // still the old copy

    // Back online: the resume replays both changes over the socket (no reload, no refetch).
    const url = await neha.getByTestId('chat-conversation').getAttribute('data-channel-url');
    const resumedBefore = received.filter((frame) => frame.type === 'resumed').length;
    cut = false;
    await expect(neha.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true', { timeout: 20_000 });
    await expect.poll(() => received.filter((frame) => frame.type === 'resumed').length).toBe(resumedBefore + 1);
    const auth = sent.filter((frame) => frame.type === 'auth').at(-1)!;
    expect((auth.cursors as Record<string, unknown>)[url!]).toEqual({ position: 2, change_seq: 0 });
    const replay = received.slice(received.findLastIndex((frame) => frame.type === 'auth_ok'));
    expect(replay.filter((frame) => frame.type === 'channel').map((frame) => [frame.event, frame.change_seq])).toEqual([
      ['message_updated', 1],
      ['message_deleted', 2],
    ]);
    await expect(messageRow(neha, 'Correction: 101.25').getByTestId('chat-message-edited')).toBeVisible();
    await expect(messages(neha)).not.toContainText('Typo: 10.125');
    await expect(messages(neha).locator(`[data-position="${deletedPosition}"]`).getByTestId('chat-message-deleted')).toBeVisible();
    await expect(messages(neha)).not.toContainText('Price 101.25');
    await arjun.context().close();
    await context.close();
  });

  test("the header's Chat link opens /chat and counts unread messages; visitors do not see it", async ({ browser }) => {
    const arjun = await openAs(browser, DEMO.dealer, '/chat');
    const neha = await openAs(browser, DEMO.secondDealer, '/chat');
    await groupWithNeha(arjun, neha, 'Header badge desk');

    // Neha goes to Find (same layout, chat session still live): Arjun's messages count on the link.
    const nav = neha.getByRole('navigation', { name: 'Main' }).getByTestId('nav-chat');
    await neha.goto('/find');
    await expect(nav).toBeVisible();
    await expect(neha.getByTestId('chat-status')).toHaveCount(0);
    // Other specs' chats may have left unread messages: count from what the badge shows now.
    await neha.waitForLoadState('networkidle');
    const badge = nav.getByTestId('nav-chat-unread');
    const before = (await badge.count()) > 0 ? Number.parseInt((await badge.textContent()) ?? '0', 10) : 0;
    await send(arjun, 'Are you there?');
    await send(arjun, 'Axis 2030s at 7.40?');
    await expect(badge).toHaveText(`${before + 2} unread`);
    await expect(nav).toHaveAccessibleName(`Chat ${before + 2} unread`);

    // The link goes to /chat; opening the chat reads it and the badge goes.
    await nav.click();
    await expect(neha).toHaveURL(/\/chat$/);
    await channelRow(neha, 'Header badge desk').click();
    await expect(messageRow(neha, 'Axis 2030s at 7.40?')).toBeVisible();
    if (before === 0) await expect(badge).toHaveCount(0);
    else await expect(badge).toHaveText(`${before} unread`);
    await arjun.context().close();
    await neha.context().close();

    // A visitor on a public page of the same layout: no Chat link.
    const context = await browser.newContext();
    const visitor = await context.newPage();
    await visitor.goto('/find');
    await expect(visitor.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Find' })).toBeVisible();
    await expect(visitor.getByTestId('nav-chat')).toHaveCount(0);
    await context.close();
  });
});
