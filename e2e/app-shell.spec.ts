import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

test.describe('app shell behaviour', () => {
  test('the session is refreshed every 240 s while signed in', async ({ page }) => {
    await page.clock.install();
    await signIn(page, DEMO.dealer);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    const refresh = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/token/refresh/'));
    await page.clock.fastForward(240_000);
    await refresh;
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  });

  test('a changed app version reloads the page once and stores the new version', async ({ page, request }) => {
    const { version } = (await (await request.get('/version.json')).json()) as { version: string };
    await page.goto('/about');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('previousVersion'))).toBe(version);
    let loads = 0;
    page.on('load', () => (loads += 1));
    await page.evaluate(() => localStorage.setItem('previousVersion', '0.0.0-old'));
    await page.reload();
    await expect.poll(() => loads).toBeGreaterThanOrEqual(2);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('previousVersion'))).toBe(version);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('keyboard users can skip to the content and reach the sign-in form', async ({ page }) => {
    await page.goto('/auth/login');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('tab', { name: 'Password', exact: true })).toBeFocused();
  });
});
