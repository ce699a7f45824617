/**
 * Chat (issue 6) in two Chromium contexts against the real server and its chat socket: Demo
 * Capital's dealer (Arjun Mehta) and Second Bank's dealer (Neha Kulkarni) open a direct chat,
 * exchange messages and a file, see unread counts and read receipts; a declined group invitation
 * tells the inviter; basic@small.dart meets the chat terms gate. Screenshots in light and dark.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, resetWorkspaceLayout, signIn } from './helpers';

const ARJUN = 'Arjun Mehta';
const NEHA = 'Neha Kulkarni';
const FARHAN = 'Farhan Shaikh';

async function openAs(browser: Browser, email: string, path: '/chat' | '/dart'): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  await page.goto(path);
  // The default layout, Chat in front of Build Network: the layout is saved per user, and another spec
  // (chat-phone, build-network) may have left Build Network in front of Chat.
  if (path === '/dart') await resetWorkspaceLayout(page);
  await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
  return page;
}

const channelRow = (page: Page, title: string | RegExp): Locator =>
  page.getByTestId('chat-channel').filter({ has: page.getByTestId('chat-channel-title').getByText(title, { exact: true }) });
const composer = (page: Page): Locator => page.getByRole('textbox', { name: 'Message' });
const messages = (page: Page): Locator => page.getByTestId('chat-messages');

async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  const exact = new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await expect(messages(page).getByTestId('chat-message-text').filter({ hasText: exact })).toBeVisible();
  await expect(composer(page)).toHaveValue('');
}

/** New chat → direct → search → pick: the chat opens. */
async function startDirectChat(page: Page, search: string, name: string): Promise<void> {
  await page.getByTestId('chat-new').click();
  const dialog = page.getByRole('dialog', { name: 'New chat' });
  await dialog.getByRole('textbox', { name: 'Search people' }).fill(search);
  await dialog.getByTestId('chat-user-option').filter({ hasText: name }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('chat-conversation-title')).toHaveText(name);
}

/** Light and dark pictures of the page, or of one part of it. */
async function shoot(page: Page, name: string, part?: Locator): Promise<void> {
  await page.mouse.move(0, 0); // no hover tooltips in the picture
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.waitForTimeout(350);
    const path = `test-results/screenshots/${name}-${theme}.png`;
    if (part) await part.screenshot({ path });
    else await page.screenshot({ path, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('Chat', () => {
  test('a direct chat: invitation, messages both ways, unread counts, read receipts, a file, buzz and load previous', async ({
    browser,
    consoleGuard,
  }) => {
    // The EICAR test file is refused by the server's scan with a 400, which the browser logs.
    consoleGuard.allow(/status of 400 .*\/api\/chat\/channels\/[^/]+\/files\/\?reqId=[^&]+&fileName=axes\.txt\)$/);
    test.slow(); // two browsers, a throttled upload and a page and a half of history
    const arjun = await openAs(browser, DEMO.dealer, '/chat');
    // Neha watches from the workspace's compact chat panel.
    const neha = await openAs(browser, DEMO.secondDealer, '/dart');
    const nehaPanel = neha.getByTestId('workspace-chat');

    await startDirectChat(arjun, 'Neha', NEHA);
    await send(arjun, 'Namaste Neha, are you quoting the 7.18% GS 2033 today?');
    await expect(arjun.getByTestId('chat-receipt')).toHaveText(/Sent|Delivered/);

    // Neha gets the invitation live, with the message waiting; accepting opens the chat.
    const invitation = channelRow(neha, ARJUN);
    await expect(invitation).toBeVisible();
    await expect(invitation).toContainText('Invited');
    await invitation.click();
    await expect(nehaPanel.getByTestId('chat-invitation')).toContainText(`${ARJUN} invited you`);
    await expect(messages(neha)).toContainText('are you quoting the 7.18% GS 2033');
    await nehaPanel.getByRole('button', { name: 'Accept' }).click();
    await expect(nehaPanel.getByTestId('chat-invitation')).toBeHidden();

    // Read receipt: Arjun sees that Neha has read it once she has the chat open.
    await expect(arjun.getByTestId('chat-receipt')).toHaveText(`· Seen by ${NEHA}`);

    // Neha replies; it appears live at Arjun's, scrolled into view.
    await send(neha, 'Yes, 7.1550 bid for 5 Cr.');
    const reply = messages(arjun).getByTestId('chat-message').filter({ hasText: 'Yes, 7.1550 bid for 5 Cr.' });
    await expect(reply).toBeInViewport();

    // Unread counts: Neha leaves the chat (back to the list only) and Arjun sends two more.
    await neha.reload();
    await expect(neha.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
    await expect(nehaPanel.getByTestId('chat-conversation')).toHaveCount(0);
    await send(arjun, 'Done at 7.1550.');
    await send(arjun, 'Sending the deal sheet.');
    await expect(arjun.getByTestId('chat-receipt')).not.toContainText('Seen');
    const nehaRow = channelRow(neha, ARJUN);
    await expect(nehaRow.getByTestId('chat-unread')).toHaveText('2');
    await expect(nehaRow).toContainText('Sending the deal sheet.');

    // A file from Arjun: the progress bar, then the file message on both sides.
    // A slow uplink (Chromium's network emulation) makes the progress bar observable.
    const cdp = await arjun.context().newCDPSession(arjun);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    const rows = Array.from({ length: 4000 }, (_, i) => `IN00202300${String(i).padStart(2, '0')},7.1550,50000000`).join('\n');
    await arjun.getByTestId('chat-file-input').setInputFiles({
      name: 'deal-sheet.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`isin,yield,quantum\nIN0020230085,7.1550,50000000\n${rows}\n`),
    });
    await expect(arjun.getByTestId('chat-upload-progress')).toBeVisible();
    await expect(arjun.getByTestId('chat-upload')).toContainText(/Uploading deal-sheet\.csv · \d+%/);
    await expect(messages(arjun).getByTestId('chat-file').filter({ hasText: 'deal-sheet.csv' })).toBeVisible();
    await expect(arjun.getByTestId('chat-upload-progress')).toHaveCount(0);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect(nehaRow.getByTestId('chat-unread')).toHaveText('3');

    // A type chat does not take is refused before any upload.
    await arjun
      .getByTestId('chat-file-input')
      .setInputFiles({ name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
    await expect(arjun.getByTestId('chat-upload-error')).toHaveText('This file type cannot be sent in chat.');
    // An allowed type carrying the EICAR anti-virus test file is refused by the server's scan; nothing is sent.
    await arjun.getByTestId('chat-file-input').setInputFiles({
      name: 'axes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', 'latin1'),
    });
    await expect(arjun.getByTestId('chat-upload-error')).toHaveText('The file was rejected by the virus scan.');
    await expect(messages(arjun).getByTestId('chat-file').filter({ hasText: 'axes.txt' })).toHaveCount(0);

    // Neha opens the chat: the unread badge goes, everything is there, and Arjun sees it read.
    await nehaRow.click();
    await expect(nehaRow.getByTestId('chat-unread')).toHaveCount(0);
    await expect(messages(neha)).toContainText('Done at 7.1550.');
    const file = messages(neha).getByTestId('chat-file').filter({ hasText: 'deal-sheet.csv' });
    await expect(file).toContainText(/\d+(\.\d)? KB/);
    await expect(arjun.getByTestId('chat-receipt')).toHaveText(`· Seen by ${NEHA}`);

    // The file downloads with its name and content.
    const download = neha.waitForEvent('download');
    await file.click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('deal-sheet.csv');
    const stream = await saved.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toContain('IN0020230085,7.1550');

    // Typing indicator: Neha types, Arjun sees it.
    await composer(neha).pressSequentially('Confirm');
    await expect(arjun.getByTestId('chat-typing')).toHaveText(`${NEHA} is typing…`);
    // Shift+Enter is a new line, Enter sends both lines.
    await composer(neha).press('Shift+Enter');
    await composer(neha).pressSequentially('ed.');
    await expect(composer(neha)).toHaveValue('Confirm\ned.');
    await composer(neha).press('Enter');
    await expect(messages(arjun).getByTestId('chat-message-text').last()).toHaveText('Confirm\ned.');

    // Buzz: both conversations shake for 2 s (idle → started → finished), with the message in the log.
    await arjun.getByTestId('chat-buzz').click();
    await expect(messages(neha)).toHaveAttribute('data-buzz', 'started');
    await expect(messages(neha).getByTestId('chat-message').last()).toContainText(`${ARJUN} buzzed`);
    await expect(messages(neha)).toHaveAttribute('data-buzz', 'finished', { timeout: 5000 });
    await expect(messages(arjun)).toHaveAttribute('data-buzz', 'finished');

    // Screenshots: the full page (Arjun) and the compact workspace panel (Neha).
    await shoot(arjun, 'chat-page');
    await shoot(neha, 'chat-panel', neha.getByRole('region', { name: 'Chat', exact: true }));

    // Load previous: more than a page (30) of history; scrolling to the top brings the older page in place.
    for (let level = 1; level <= 32; level++) {
      await send(arjun, `Level ${level}`);
      await arjun.waitForTimeout(210); // under the 5 messages/s limit
    }
    await neha.reload();
    await channelRow(neha, ARJUN).click();
    const nehaMessages = messages(neha).locator('[data-position]');
    await expect(nehaMessages.last()).toContainText('Level 32');
    // The panel sits low on the workspace page: bring the whole log into the page's viewport, then
    // check that the log itself is scrolled to its last message.
    await messages(neha).scrollIntoViewIfNeeded();
    await expect(nehaMessages.last()).toBeInViewport();
    expect(Number(await nehaMessages.first().getAttribute('data-position'))).toBeGreaterThan(1);
    await messages(neha).evaluate((element) => {
      element.scrollTop = 0;
    });
    await expect(nehaMessages.first()).toHaveAttribute('data-position', '1');
    await expect(nehaMessages.first()).toContainText('Namaste Neha');
    // The reading position is kept: the view did not jump to the new top.
    expect(await messages(neha).evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    await arjun.context().close();
    await neha.context().close();
  });

  test('a declined group invitation tells the inviter; a declined direct chat leaves the list', async ({ browser, consoleGuard }) => {
    // The inviter's app leaves a declined direct chat; when the server has already removed them the
    // leave answers 404 (the app ignores it, README chat decisions), which the browser logs.
    consoleGuard.allow(/status of 404 .*\/api\/chat\/channels\/dart_direct_[^/]+\/leave\/\)$/);
    const arjun = await openAs(browser, DEMO.dealer, '/chat');
    const neha = await openAs(browser, DEMO.secondDealer, '/chat');

    await arjun.getByTestId('chat-new').click();
    const dialog = arjun.getByRole('dialog', { name: 'New chat' });
    await dialog.getByText('Group', { exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Add people' }).fill('Neha');
    await dialog.getByTestId('chat-user-option').filter({ hasText: NEHA }).click();
    await expect(dialog.getByLabel('Chosen people')).toHaveText(NEHA);
    await dialog.getByTestId('chat-create-submit').click();
    await expect(dialog.getByRole('alert')).toContainText('This field is required'); // the contract's message, before any call
    await dialog.getByRole('textbox', { name: 'Name' }).fill('G-sec desk');
    await dialog.getByTestId('chat-create-submit').click();
    await expect(dialog).toBeHidden();
    await expect(arjun.getByTestId('chat-conversation-title')).toHaveText('G-sec desk');

    const invitation = channelRow(neha, 'G-sec desk');
    await expect(invitation).toContainText('Invited');
    await invitation.click();
    await neha.getByTestId('chat-invitation').getByRole('button', { name: 'Decline' }).click();
    await expect(channelRow(neha, 'G-sec desk')).toHaveCount(0);

    await expect(arjun.getByText(`${NEHA} declined your request`)).toBeVisible();
    await neha.context().close();

    // A declined direct chat: it leaves the inviter's list, and the first remaining chat opens.
    const farhan = await openAs(browser, DEMO.broker, '/chat');
    await startDirectChat(arjun, 'Farhan', FARHAN);
    await send(arjun, 'Farhan, can you show the HDFC 2027s?');
    const direct = channelRow(farhan, ARJUN);
    await direct.click();
    await farhan.getByTestId('chat-invitation').getByRole('button', { name: 'Decline' }).click();
    await expect(channelRow(arjun, FARHAN)).toHaveCount(0);
    const first = arjun.getByTestId('chat-channel').first();
    await expect(first).toHaveAttribute('aria-current', 'true');
    await expect(arjun.getByTestId('chat-conversation-title')).toHaveText(
      (await first.getByTestId('chat-channel-title').textContent()) ?? '',
    );
    await arjun.context().close();
    await farhan.context().close();
  });

  test('a trading group: operators are managed and a banned member loses the chat while the others see them removed', async ({
    browser,
  }) => {
    const arjun = await openAs(browser, DEMO.dealer, '/chat');
    const neha = await openAs(browser, DEMO.secondDealer, '/chat');
    const farhan = await openAs(browser, DEMO.broker, '/chat');

    await arjun.getByTestId('chat-new').click();
    const dialog = arjun.getByRole('dialog', { name: 'New chat' });
    await dialog.getByText('Trading group', { exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('SDL switch');
    for (const [search, name] of [
      ['Neha', NEHA],
      ['Farhan', FARHAN],
    ] as const) {
      await dialog.getByRole('textbox', { name: 'Add people' }).fill(search);
      await dialog.getByTestId('chat-user-option').filter({ hasText: name }).click();
    }
    await dialog.getByTestId('chat-create-submit').click();
    await expect(arjun.getByTestId('chat-conversation-title')).toHaveText('SDL switch');

    for (const page of [neha, farhan]) {
      await channelRow(page, 'SDL switch').click();
      await page.getByTestId('chat-invitation').getByRole('button', { name: 'Accept' }).click();
      await expect(page.getByTestId('chat-invitation')).toBeHidden();
    }
    await send(farhan, 'Offer 7.32% on the MH SDL 2034.');
    await expect(messages(neha)).toContainText('Offer 7.32% on the MH SDL 2034.');
    await expect(neha.getByTestId('chat-conversation')).toContainText('Trading group · 3 members');

    // Arjun (operator) makes Neha an operator, then bans Farhan.
    await arjun.getByTestId('chat-members-button').click();
    const members = arjun.getByRole('dialog', { name: /^Members/ });
    const nehaMember = members.getByTestId('chat-member').filter({ hasText: NEHA });
    await nehaMember.getByRole('button', { name: `Manage ${NEHA}` }).click();
    // Each member's menu is named after them: a menu still closing never takes the click.
    await arjun
      .getByRole('menu', { name: `Manage ${NEHA}` })
      .getByRole('menuitem', { name: 'Make operator' })
      .click();
    await expect(nehaMember).toContainText('Operator');
    await members
      .getByTestId('chat-member')
      .filter({ hasText: FARHAN })
      .getByRole('button', { name: `Manage ${FARHAN}` })
      .click();
    await arjun
      .getByRole('menu', { name: `Manage ${FARHAN}` })
      .getByRole('menuitem', { name: 'Ban from chat' })
      .click();
    await expect(members.getByTestId('chat-member')).toHaveCount(2);

    // Farhan is moved off the channel with a notice; Neha sees him removed.
    await expect(farhan.getByText('You have been removed from this channel.')).toBeVisible();
    await expect(channelRow(farhan, 'SDL switch')).toHaveCount(0);
    await expect(farhan.getByTestId('chat-conversation').filter({ hasText: 'SDL switch' })).toHaveCount(0);
    await expect(neha.getByTestId('chat-conversation')).toContainText('Trading group · 2 members');
    for (const page of [arjun, neha, farhan]) await page.context().close();
  });

  test('chat stays behind the chat terms until they are accepted', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, DEMO.basic);
    await page.goto('/chat');
    const terms = page.getByTestId('chat-terms');
    await expect(terms).toBeVisible();
    await expect(page.getByTestId('chat-status')).toHaveCount(0);
    await expect(terms.getByRole('link', { name: 'chat policy' })).toHaveAttribute('href', '/chat-policy');
    await shoot(page, 'chat-terms');
    const accepted = page.waitForResponse((r) => r.url().endsWith('/api/client/chat-terms/') && r.request().method() === 'PATCH');
    await terms.getByRole('button', { name: 'Accept and start chatting' }).click();
    expect((await accepted).status()).toBe(200);
    await expect(terms).toBeHidden();
    await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
    await expect(page.getByTestId('chat-channels-empty')).toBeVisible();
    await shoot(page, 'chat-empty');
    // Offline and back: the connectivity toasts, and chat is up again.
    await context.setOffline(true);
    await expect(page.getByText('You are offline')).toBeVisible();
    await context.setOffline(false);
    await expect(page.getByText('Connected', { exact: true })).toBeVisible();
    await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
    // The acceptance is stored: a reload goes straight to chat.
    await page.reload();
    await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
    await context.close();
  });
});
