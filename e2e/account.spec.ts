import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, outboxFor, outboxIds, passwordForm, signIn } from './helpers';

/**
 * Other specs sign in as these demo users with the demo password and know them by name, so each test
 * here puts back what it changed (through the same reset-link flow, by API).
 */
async function restorePassword(request: APIRequestContext, email: string, baseURL: string): Promise<void> {
  const seen = await outboxIds(request, email);
  const asked = await request.post('/api/reset-password/', { data: { email, web_url: `${baseURL}/auth/reset-password` } });
  expect(asked.ok()).toBeTruthy();
  let link: URL | undefined;
  await expect
    .poll(async () => {
      const fresh = (await outboxFor(request, email)).find((message) => !seen.has(message.id));
      const found = fresh ? /https?:\/\/\S+\/auth\/reset-password\?\S+/.exec(fresh.body)?.[0] : undefined;
      link = found ? new URL(found) : undefined;
      return link;
    })
    .toBeTruthy();
  const uid = link!.searchParams.get('uid');
  const token = link!.searchParams.get('token');
  const changed = await request.post(`/api/change-password/${uid}/`, {
    data: { new_password1: DEMO_PASSWORD, new_password2: DEMO_PASSWORD, token },
  });
  expect(changed.ok(), await changed.text()).toBeTruthy();
}

test.describe('password reset and profile', () => {
  test('a user resets a forgotten password with the e-mailed link and signs in with the new one', async ({ page, request, baseURL }) => {
    try {
      const seen = await outboxIds(request, DEMO.broker);
      await page.goto('/auth/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await expect(page).toHaveURL(/\/auth\/forgot-password$/);
      await page.getByLabel('Email').fill(DEMO.broker);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expect(page.getByText('Check your e-mail')).toBeVisible();

      let link: string | undefined;
      await expect
        .poll(async () => {
          const fresh = (await outboxFor(request, DEMO.broker)).find((message) => !seen.has(message.id));
          link = fresh ? /https?:\/\/\S+\/auth\/reset-password\?\S+/.exec(fresh.body)?.[0] : undefined;
          return link;
        })
        .toBeTruthy();
      await page.goto(link as string);
      await page.getByRole('textbox', { name: 'New password', exact: true }).fill('Brokers2026');
      await page.getByRole('textbox', { name: 'Confirm new password' }).fill('Brokers2027');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await expect(page.getByText('The two password fields didn’t match.')).toBeVisible();
      await page.getByRole('textbox', { name: 'Confirm new password' }).fill('Brokers2026');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await expect(page.getByText('Password changed')).toBeVisible();
      await page.getByRole('link', { name: 'Sign in' }).click();

      const form = passwordForm(page);
      await form.getByLabel('Email').fill(DEMO.broker);
      await form.getByRole('textbox', { name: 'Password', exact: true }).fill('Brokers2026');
      await form.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page).toHaveURL(/\/dart$/);
    } finally {
      // Off the workspace first: restoring the password ends the session, and the open panels' next
      // reads would be refused (401) mid-flight, which the console guard counts as errors.
      await page.goto('about:blank');
      await restorePassword(request, DEMO.broker, baseURL!);
    }
  });

  test('a user changes their name and a security preference on the profile page', async ({ page, request }) => {
    try {
      await signIn(page, DEMO.secondDealer);
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      await expect(page).toHaveURL(/\/profile$/);
      const details = page.getByRole('form', { name: 'Personal details' });
      await details.getByLabel('First name').fill('Nikhil$');
      await details.getByRole('button', { name: 'Save changes' }).click();
      await expect(details.getByText('Should not contain special characters.')).toBeVisible();
      await details.getByLabel('First name').fill('Nikhil');
      await details.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Profile updated')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Account menu' })).toContainText('Nikhil');

      const alerts = page.getByRole('switch', { name: 'E-mail me on every new sign-in' });
      const before = await alerts.isChecked();
      await alerts.click({ force: true });
      await expect(page.getByText('Security preference saved')).toBeVisible();
      await expect(alerts).toBeChecked({ checked: !before });
      await page.reload();
      await expect(page.getByRole('switch', { name: 'E-mail me on every new sign-in' })).toBeChecked({ checked: !before });
    } finally {
      // Put Neha Kulkarni and her preference back for the specs that know her by name.
      const signedIn = await request.post('/api/token/', { data: { email: DEMO.secondDealer, password: DEMO_PASSWORD } });
      const headers = { authorization: `Bearer ${((await signedIn.json()) as { access: string }).access}` };
      expect((await request.patch('/api/profile/', { headers, data: { first_name: 'Neha' } })).ok()).toBeTruthy();
      expect(
        (await request.post('/api/chatter/user/security-preference', { headers, data: { key: 'login_alerts', enabled: false } })).ok(),
      ).toBeTruthy();
    }
  });
});
