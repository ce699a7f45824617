/**
 * Issue 15 §3, the profile's Notifications section: channels per category saved at once and kept across a reload,
 * a trade-critical category's in-app switch locked on, the server holding the same answer, and snooze for an hour. The back-office user's choices are put back at the end.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiSession, DEMO, expectJson, signIn } from './helpers';

const section = (page: Page) => page.getByRole('region', { name: 'Notifications', exact: true });
const channel = (page: Page, label: string) => section(page).getByRole('switch', { name: label, exact: true });

test.describe('notification preferences', () => {
  test('switches save and survive a reload; trade-critical in-app stays on; snooze for an hour', async ({ page, request }) => {
    await signIn(page, DEMO.backOffice);
    await page.goto('/profile');
    await expect(section(page).getByRole('table', { name: 'Notification channels by category' })).toBeVisible();

    // Trade-critical: in-app is always on (no switch to move), e-mail and SMS are the user's.
    await expect(section(page).getByLabel('Deals: In-app always on')).toHaveText('Always on');
    await expect(channel(page, 'Deals: In-app')).toHaveCount(0);
    await expect(channel(page, 'Deals: E-mail')).not.toBeChecked();
    await expect(section(page).getByText('Trade-critical: always in-app')).toHaveCount(5);

    // Support replies by e-mail on, Chat invites in-app off: each saved at once.
    const supportEmail = channel(page, 'Support replies: E-mail');
    const chatInApp = channel(page, 'Chat invites: In-app');
    await expect(supportEmail).not.toBeChecked();
    await expect(chatInApp).toBeChecked();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/notifications/preferences/') && r.request().method() === 'PUT');
    await supportEmail.click({ force: true });
    expect((await saved).status()).toBe(200);
    await expect(page.getByText('Support replies: E-mail on')).toBeVisible();
    await chatInApp.click({ force: true });
    await expect(page.getByText('Chat invites: In-app off')).toBeVisible();

    await page.reload();
    await expect(channel(page, 'Support replies: E-mail')).toBeChecked();
    await expect(channel(page, 'Chat invites: In-app')).not.toBeChecked();
    await expect(section(page).getByLabel('Deals: In-app always on')).toBeVisible();

    // The server holds the same answer.
    const api = await apiSession(request, DEMO.backOffice);
    const stored = await expectJson<{ categories: Array<{ category: string; in_app: boolean; email: boolean }> }>(
      await request.get('/api/notifications/preferences/', { headers: api.auth }),
      200,
    );
    expect(stored.categories.find((c) => c.category === 'support')).toMatchObject({ in_app: true, email: true });
    expect(stored.categories.find((c) => c.category === 'chat')).toMatchObject({ in_app: false });

    // Snooze: the state line says until when.
    await expect(section(page).getByTestId('notification-snooze-state')).toHaveText('Not snoozed');
    await section(page).getByRole('button', { name: 'Snooze for an hour' }).click();
    await expect(section(page).getByTestId('notification-snooze-state')).toContainText('Snoozed until');
    await expect(page.getByText(/^Notifications snoozed until/)).toBeVisible();

    await section(page).scrollIntoViewIfNeeded();
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await page.waitForTimeout(300);
      await section(page).screenshot({ path: `test-results/screenshots/notification-preferences-${theme}.png` });
    }

    // Put the back-office user's channels back for the specs after this one.
    await expectJson(
      await request.put('/api/notifications/preferences/', {
        headers: api.auth,
        data: {
          categories: [
            { category: 'support', email: false },
            { category: 'chat', in_app: true },
          ],
        },
      }),
      200,
    );
  });
});
