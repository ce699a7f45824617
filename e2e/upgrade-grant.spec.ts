/**
 * Issue 15 (upgrade granted) end to end in two Chromium contexts: a newly registered Basic firm's user meets the
 * 402 page on /inventory and requests an upgrade; Dart Support opens the access request in the queue and grants
 * Premium; the user's bell lights up live with "Upgrade granted", the request reads Resolved, and /inventory opens.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn, verifyEmailForRegistration } from './helpers';

const PASSWORD = 'Upgrade@2026';

/** A new CORP client (Basic plan) registered through the API; its first user is an ops admin and dealer. */
async function registerBasicFirm(request: APIRequestContext, stamp: number) {
  const email = `treasury-${stamp}@upgrade-test.in`;
  // Names take letters only (spec §5): the stamp in letters keeps each run's firm apart.
  const tag = [...String(stamp % 1_000_000)].map((digit) => 'ABCDEFGHIJ'[Number(digit)]).join('');
  const firm = `Upgrade Treasury ${tag}`;
  const verification = await verifyEmailForRegistration(request, email);
  const registered = await request.post('/api/client/register/', {
    data: {
      auth_mode: 'password',
      client_type: 'CORP',
      pan: 'AAACU' + String(stamp % 10_000).padStart(4, '0') + 'K',
      password: PASSWORD,
      identity: { first_name: 'Kavya', last_name: 'Rao' },
      corporate_identity: { name: firm },
      contact: { email, mobile: `98${String(stamp % 100_000_000).padStart(8, '0')}`, whatsapp_consent: false },
      verification,
    },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  return { email, firm };
}

test.describe('upgrade granted', () => {
  test('Dart Support grants Premium on a Basic firm’s request: the bell says so live and the book opens', async ({
    page,
    browser,
    request,
  }) => {
    const { email, firm } = await registerBasicFirm(request, Date.now());
    await signIn(page, email, PASSWORD);
    await page.goto('/inventory');
    await expect(page.getByRole('heading', { name: 'Premium' })).toBeVisible();
    await page.getByRole('button', { name: 'Request Upgrade' }).click();
    await expect(page.getByText('Your request has been noted. We will update you shortly via email.', { exact: true })).toBeVisible();
    await expect(page.getByTestId('notification-bell')).toBeVisible();
    const before = Number(await page.getByTestId('notification-unread').getAttribute('data-count'));

    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await signIn(staff, DEMO.support);
    await staff.goto('/support/queue');
    const row = staff.getByRole('table', { name: 'Support queue' }).getByRole('row').filter({ hasText: firm });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: /^Open request #/ }).click();
    const drawer = staff.getByRole('dialog', { name: 'Support request' });
    await expect(drawer.getByRole('button', { name: `Grant Premium to ${firm}` })).toBeVisible();
    await drawer.screenshot({ path: 'test-results/screenshots/support-grant-upgrade.png' });
    await drawer.getByRole('button', { name: `Grant Premium to ${firm}` }).click();
    await expect(staff.getByText(`${firm} is on the Premium plan.`)).toBeVisible();
    await expect(drawer.getByTestId('ticket-status')).toHaveText('Resolved');
    await expect(drawer.getByTestId('ticket-message-staff')).toContainText('now on the Premium plan');
    await expect(drawer.getByRole('button', { name: /^Grant Premium/ })).toHaveCount(0);
    await staffContext.close();

    // The requester's bell lights up without a reload (the socket reconnects with the new plan first).
    await expect(page.getByTestId('notification-unread')).toHaveAttribute('data-count', String(before + 1), { timeout: 20_000 });
    await page.getByTestId('notification-bell').click();
    const item = page.getByTestId('notification-item').first();
    await expect(item).toContainText('Upgrade granted');
    await expect(item).toContainText('Your organisation is now on the Premium plan');
    await page.keyboard.press('Escape');

    // The book opens now; the request reads Resolved.
    await page.goto('/inventory');
    await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Premium' })).toHaveCount(0);
    await page.goto('/support/requests');
    const mine = page.getByRole('table', { name: 'My requests' }).getByRole('row').filter({ hasText: 'Inventory access' });
    await expect(mine.getByTestId('ticket-status')).toHaveText('Resolved');
  });
});
