/**
 * Issue 16 §1, "the compliance officer reads all of the own firm's chats … with chat export per channel and period":
 * Demo Capital's dealer and Second Bank's dealer chat through the chat API; Demo Capital's compliance officer (not a
 * member of the chat) finds it in the Chats section of /surveillance by searching, reads the message in the drawer,
 * exports the transcript (`POST /api/download-chats`) and the downloaded file holds the message; light and dark
 * pictures of the section and the drawer; the read and the export are in the audit trail.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { apiSession, DEMO, expectJson, signIn } from './helpers';

const OUT = 'test-results/surveillance';

test('the compliance officer finds a chat between the firms, reads it and exports its transcript', async ({
  page,
  request,
  consoleGuard,
}) => {
  test.setTimeout(120_000);
  mkdirSync(OUT, { recursive: true });
  mkdirSync('test-results/screenshots', { recursive: true });
  const arjun = await apiSession(request, DEMO.dealer);
  const neha = await apiSession(request, DEMO.secondDealer);
  const stamp = Date.now();
  const name = `Gilt desk ${stamp}`;
  const first = `Can you show 7.26% GS 2033 for 10 cr? ref ${stamp}`;
  const reply = `Offer at 7.1050, firm for five minutes (${stamp})`;

  // 1. Arjun (Demo Capital) and Neha (Second Bank) chat.
  const channel = await expectJson<{ url: string }>(
    await request.post('/api/chat/channels/', {
      headers: arjun.auth,
      data: { customType: 'group', name, invitedUserIds: [neha.userId] },
    }),
    201,
  );
  const channelPath = `/api/chat/channels/${encodeURIComponent(channel.url)}`;
  await expectJson(await request.post(`${channelPath}/accept/`, { headers: neha.auth }), 200);
  await expectJson(
    await request.post(`${channelPath}/messages/`, { headers: arjun.auth, data: { reqId: `sc-a-${stamp}`, message: first } }),
    201,
  );
  await expectJson(
    await request.post(`${channelPath}/messages/`, { headers: neha.auth, data: { reqId: `sc-n-${stamp}`, message: reply } }),
    201,
  );

  // 2. The compliance officer finds the chat by searching its name.
  await signIn(page, DEMO.compliance);
  await expect(page).toHaveURL(/\/surveillance$/);
  const section = page.getByRole('region', { name: 'Chats' });
  await expect(section).toBeVisible();
  await section.getByLabel('Search chats').fill(name);
  const row = section.getByTestId('chat-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('With Second Bank');
  await expect(row).toContainText('Group');
  await expect(row.getByRole('cell').nth(3)).toHaveText('2');

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.waitForTimeout(300);
    await section.screenshot({ path: `test-results/screenshots/surveillance-chats-${theme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // 3. Read: the drawer shows the messages of the period, oldest first, with sender and firm (keyboard: Enter).
  await row.getByRole('button', { name: `Read ${name}` }).focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name });
  await expect(drawer).toBeVisible();
  const messages = drawer.getByTestId('chat-message');
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(0)).toContainText(first);
  await expect(messages.nth(0)).toContainText('(Demo Capital)');
  await expect(messages.nth(1)).toContainText(reply);
  await expect(messages.nth(1)).toContainText('(Second Bank)');
  await expect(drawer.getByTestId('chat-messages-count')).toContainText('2 messages in');

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `test-results/screenshots/surveillance-chats-drawer-${theme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // 4. Export transcript: a text file holding both messages.
  const downloading = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Export transcript' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.txt$/);
  const file = path.join(OUT, `chat-transcript-${stamp}.txt`);
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(first);
  expect(text).toContain(reply);
  expect(text).toContain(channel.url);
  await expect(page.getByText('Transcript exported')).toBeVisible();

  // 5. Escape closes the drawer; the read and the export are in the audit trail.
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  // The export refreshed the trail: it holds the read (written when the drawer opened) and the export.
  const trail = page.getByRole('table', { name: 'Audit trail' });
  await expect(trail.getByRole('row').filter({ hasText: 'Chat read by compliance' }).first()).toBeVisible();
  await expect(trail.getByRole('row').filter({ hasText: 'Chat exported' }).first()).toBeVisible();
  expect(consoleGuard.problems()).toEqual([]);
});
