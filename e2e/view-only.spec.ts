/**
 * View-only users (compliance and viewer roles; issue 12 fix 8) are shown no write control: the
 * server would refuse each with 403 VIEW_ONLY. They read chats (with a view-only note instead of the
 * composer, the invitation's Accept / Decline and the members' management) and see no trading control.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, signIn } from './helpers';

async function apiSession(request: APIRequestContext, email: string) {
  const token = await request.post('/api/token/', { data: { email, password: DEMO_PASSWORD } });
  expect(token.status()).toBe(200);
  const { access } = (await token.json()) as { access: string };
  const auth = { authorization: `Bearer ${access}` };
  const session = await request.get('/api/session/', { headers: auth });
  const { user_info } = (await session.json()) as { user_info: { id: string } };
  return { auth, userId: user_info.id };
}

test.describe('View-only users', () => {
  test('a compliance user reads chat but is offered no New chat', async ({ page }) => {
    await signIn(page, DEMO.compliance);
    await page.goto('/chat');
    await expect(page.getByRole('heading', { name: 'Chat', level: 1 })).toBeVisible();
    await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
    await expect(page.getByTestId('chat-full')).toBeVisible();
    await expect(page.getByRole('button', { name: 'New chat' })).toHaveCount(0);
    await expect(page.getByTestId('chat-new')).toHaveCount(0);
  });

  test('a viewer sees a chat it was invited to without any write control, and no trading control', async ({ page, request }) => {
    // Arjun (dealer) starts a group with Priya (viewer) and writes in it.
    const dealer = await apiSession(request, DEMO.dealer);
    const viewer = await apiSession(request, DEMO.viewer);
    const name = `Desk notes ${Date.now()}`;
    const created = await request.post('/api/chat/channels/', {
      headers: dealer.auth,
      data: { customType: 'group', name, invitedUserIds: [viewer.userId] },
    });
    expect(created.status(), await created.text()).toBe(201);
    const channel = (await created.json()) as { url: string };
    const sent = await request.post(`/api/chat/channels/${encodeURIComponent(channel.url)}/messages/`, {
      headers: dealer.auth,
      data: { reqId: `view-only-${Date.now()}`, message: 'Morning: the 7.18% GS 2033 is bid at 7.05' },
    });
    expect(sent.status(), await sent.text()).toBeLessThan(300);
    // The server refuses the viewer's writes: the controls must not be offered either.
    const refused = await request.post(`/api/chat/channels/${encodeURIComponent(channel.url)}/accept/`, { headers: viewer.auth });
    expect(refused.status()).toBe(403);

    await signIn(page, DEMO.viewer);
    await page.goto('/dart');
    await expect(page.getByRole('heading', { name: 'Workspace', level: 1 })).toBeVisible();
    await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
    // Workspace: no New chat, no quote ticket form, no upload of quotes.
    await expect(page.getByTestId('chat-new')).toHaveCount(0);
    await expect(page.getByText('Trading is not available on this account')).toBeVisible();
    await expect(page.getByRole('form', { name: 'New quote' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Upload/ })).toHaveCount(0);

    // The chat page: the invitation without Accept / Decline, no composer, no leave or management.
    await page.goto('/chat');
    await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
    await expect(page.getByTestId('chat-new')).toHaveCount(0);
    await page.getByTestId('chat-channel').filter({ hasText: name }).click();
    const conversation = page.getByTestId('chat-conversation');
    await expect(conversation.getByTestId('chat-invitation')).toContainText('view-only');
    await expect(conversation.getByRole('button', { name: 'Accept' })).toHaveCount(0);
    await expect(conversation.getByRole('button', { name: 'Decline' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
    await expect(conversation.getByText('you can read this chat but not write in it')).toBeVisible();
    await expect(conversation.getByTestId('chat-message-text')).toContainText('bid at 7.05');
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await page.waitForTimeout(300);
      await page.screenshot({ path: `test-results/screenshots/chat-view-only-${theme}.png` });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await conversation.getByTestId('chat-members-button').click();
    const members = page.getByRole('dialog');
    await expect(members.getByTestId('chat-member').first()).toBeVisible();
    await expect(members.getByRole('button', { name: 'Leave chat' })).toHaveCount(0);
    await expect(members.getByRole('button', { name: 'Invite people' })).toHaveCount(0);
    await expect(members.getByRole('button', { name: /^Manage / })).toHaveCount(0);
  });
});
