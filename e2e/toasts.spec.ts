/**
 * Issue 12 §5 fix 5 in Chromium. Toasts raised while a dialog is open never cover its action buttons:
 * five "Invitation sent" toasts raised from the invite dialog at 1440×900, 1280×720 and 390×844, where the
 * spec's top-centre stack (where toasts used to go) would cover "Send invitation" — the test checks that
 * first, so it fails on the old placement — and every toast's details stay readable. The spec's sounds
 * play on success toasts after a user gesture, and the profile's mute stops them (and is saved).
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, signIn } from './helpers';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'a visible element').not.toBeNull();
  return box!;
}

/** The toasts now shown in the default group. */
const defaultToasts = (page: Page) => page.locator('[data-toast-group="default"][data-position="top-center"] .mantine-Notification-root');

async function resetPreferences(request: APIRequestContext, email: string): Promise<void> {
  const token = await request.post('/api/token/', { data: { email, password: DEMO_PASSWORD } });
  const { access } = (await token.json()) as { access: string };
  const reset = await request.patch('/api/profile/display-preferences/', {
    data: { date_format: 'mm/dd/yy', sounds_enabled: true },
    headers: { authorization: `Bearer ${access}` },
  });
  expect(reset.ok()).toBeTruthy();
}

const soundsPlayed = async (page: Page): Promise<number> =>
  Number((await page.locator('html').getAttribute('data-dart-sounds-played')) ?? '0');

let inviteCounter = 0;

test.describe('Toasts and dialogs', () => {
  // Five toasts raised from the dialog. Between invitations the pointer rests on the newest toast: hovering
  // holds the whole stack (the spec's pause on hover) and leaving restarts each toast's 4 s, so all five
  // are on screen together however slow the machine is.
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1280, height: 720 },
    { width: 390, height: 844 },
  ]) {
    test(`toasts raised in an open dialog keep clear of its actions at ${viewport.width}×${viewport.height}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await signIn(page, DEMO.opsAdmin);
      await page.goto('/manage-users');
      await page.getByRole('button', { name: 'Invite user' }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite a colleague' });
      const send = dialog.getByRole('button', { name: 'Send invitation' });
      const stack = page.locator('[data-toast-group="default"][data-position="top-center"]');
      const width = Math.min(440, viewport.width - 32);
      for (let i = 0; i < 5; i++) {
        const email = `toast-${viewport.width}-${++inviteCounter}-${Date.now()}@democapital.in`;
        await dialog.getByLabel('Email').fill(email);
        await dialog.getByRole('checkbox', { name: 'Dealer' }).check();
        await send.click();
        await expect(dialog.getByRole('status')).toContainText(`Invitation sent to ${email}`);
        const newest = defaultToasts(page).filter({ hasText: email });
        await expect(newest).toBeVisible();
        await page.waitForTimeout(400); // the enter transition and the placement's re-measure
        await newest.hover();
        // The newest toast is whole on screen with its details.
        await expect(newest).toBeInViewport({ ratio: 0.99 });
        await expect(newest).toContainText(`We e-mailed ${email} a link to join.`);
        // Not cut: the e-mail wraps inside a stack narrowed beside the dialog.
        const detail = newest.getByText(/^We e-mailed/);
        expect(await detail.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), 'details cut').toBe(true);
      }
      await expect(defaultToasts(page)).toHaveCount(5);

      const actions = [await boxOf(send), await boxOf(dialog.getByRole('button', { name: 'Copy invitation link' }))];
      // Where the spec's top-centre stack of this height would be (where toasts used to go): over "Send invitation".
      const stackHeight = await stack.evaluate((element) => element.scrollHeight);
      const topCentre: Box = { x: (viewport.width - width) / 2, y: 16, width, height: stackHeight };
      expect(overlaps(topCentre, actions[0]!), "the spec's top-centre stack would cover the dialog's action").toBe(true);
      await expect(stack).toHaveAttribute('data-toast-placement', 'clear-of-dialog');

      const shown = (await stack.boundingBox())!;
      for (const action of actions)
        expect(overlaps(shown, action), `stack ${JSON.stringify(shown)} vs ${JSON.stringify(action)}`).toBe(false);
      const toasts = defaultToasts(page);
      for (let t = 0; t < 5; t++) {
        const box = (await toasts.nth(t).boundingBox())!;
        for (const action of actions)
          expect(overlaps(box, action), `toast ${t} ${JSON.stringify(box)} vs ${JSON.stringify(action)}`).toBe(false);
      }
    });
  }

  test('the success sound plays after a gesture and the profile mute stops it, saved with the account', async ({ page, request }) => {
    test.setTimeout(90_000);
    await resetPreferences(request, DEMO.backOffice);
    await signIn(page, DEMO.backOffice);
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Display & sounds' });
    const sounds = section.getByRole('switch', { name: 'Play sounds' });
    await expect(sounds).toBeChecked();

    const saved = () =>
      page.waitForResponse(
        (response) => response.url().endsWith('/api/profile/display-preferences/') && response.request().method() === 'PATCH',
      );
    const before = await soundsPlayed(page);
    let save = saved();
    await section.getByRole('radio', { name: /^dd\/mm\/yy/ }).check();
    await save;
    await expect.poll(() => soundsPlayed(page)).toBe(before + 1);
    await expect(page.locator('html')).toHaveAttribute('data-dart-last-sound', 'success');

    // Muted: the "Sounds muted" toast itself and later success toasts are silent.
    await sounds.uncheck({ force: true });
    await expect(page.getByText('Sounds muted')).toBeVisible();
    save = saved();
    await section.getByRole('radio', { name: /^DD-Mon-YYYY/ }).check();
    await save;
    await page.waitForTimeout(300);
    expect(await soundsPlayed(page)).toBe(before + 1);

    // Saved on the server: after a reload the switch is off and toasts stay silent.
    await page.reload();
    await expect(section.getByRole('switch', { name: 'Play sounds' })).not.toBeChecked();
    const afterReload = await soundsPlayed(page);
    save = saved();
    await section.getByRole('radio', { name: /^mm\/dd\/yy/ }).check();
    await save;
    await expect(page.getByText('Date format saved')).toBeVisible();
    await page.waitForTimeout(300);
    expect(await soundsPlayed(page)).toBe(afterReload);

    // Unmuted: sounds again.
    await section.getByRole('switch', { name: 'Play sounds' }).check({ force: true });
    await expect(page.getByText('Sounds on')).toBeVisible();
    await expect.poll(() => soundsPlayed(page)).toBe(afterReload + 1);
    await resetPreferences(request, DEMO.backOffice);
  });
});
