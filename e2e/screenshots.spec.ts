/**
 * Screenshots of the main pages in light and dark, for visual review:
 * test-results/screenshots/<page>-<theme>.png
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

const THEMES = ['light', 'dark'] as const;

async function capture(page: Page, name: string, path: string, ready: (page: Page) => Promise<void>): Promise<void> {
  await page.goto(path);
  await ready(page);
  // No stored choice: the theme follows the system setting, switched here without a reload.
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    // Let transitions (menus, notifications) settle before the picture.
    await page.waitForTimeout(350);
    await page.screenshot({ path: `test-results/screenshots/${name}-${theme}.png`, fullPage: true });
  }
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
};

test.describe('screenshots', () => {
  test('public pages', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of 410 .*\/api\/invites\/bad\/\)$/);
    await capture(page, 'home', '/', heading("The bond desk for India's debt market"));
    await capture(page, 'about', '/about', heading("Making India's bond market easier to trade"));
    await capture(page, 'product-dart', '/product/dart', heading('The Dart workspace'));
    await capture(page, 'contact', '/contact', heading('Contact us'));
    await capture(page, 'terms', '/terms', heading('Terms of use'));
    await capture(page, 'login', '/auth/login', heading('Sign in to Dart'));
    await capture(page, 'register', '/client/register', heading('Register your organisation'));
    await capture(page, 'not-found', '/no-such-page', heading('Not Found'));
    await capture(page, 'invite-invalid', '/client/register?invite=bad', heading('Invitation URL invalid'));
  });

  test('dealer pages', async ({ page }) => {
    await signIn(page, DEMO.dealer);
    await capture(page, 'dart', '/dart', heading('Workspace'));
    await capture(page, 'find', '/find', heading('Find'));
    await capture(page, 'profile', '/profile', heading('Profile'));
    await capture(page, 'access-denied', '/surveillance', heading('Access Denied'));
  });

  // Issue 12: the docking workspace, Find and a bond page at the three reviewed sizes.
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`dealer desk at ${viewport.width}x${viewport.height}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await signIn(page, DEMO.dealer);
      const size = `${viewport.width}x${viewport.height}`;
      await capture(page, `dart-${size}`, '/dart', async (p) => {
        await heading('Workspace')(p);
        // On a phone the first panel is Chat; the LIVE badge sits in Public runs.
        if (viewport.width > 500) await expect(p.getByTestId('live-status')).toHaveAttribute('data-status', 'connected');
      });
      await capture(page, `find-${size}`, '/find', heading('Find'));
      await capture(page, `security-${size}`, '/security/IN0020220151', async (p) => {
        await expect(p.getByRole('heading', { level: 1 })).toBeVisible();
      });
    });
  }

  test('compliance pages', async ({ page }) => {
    await signIn(page, DEMO.compliance);
    await capture(page, 'surveillance', '/surveillance', async (p) => {
      await expect(p.getByRole('table', { name: 'Audit trail' })).toBeVisible();
    });
  });

  test('ops admin pages', async ({ page }) => {
    await signIn(page, DEMO.opsAdmin);
    await capture(page, 'manage-users', '/manage-users', async (p) => {
      await expect(p.getByRole('table', { name: 'Users' })).toBeVisible();
    });
    await capture(page, 'exchange-credentials', '/exchange-credentials', heading('Exchange credentials'));
  });

  test('basic-tier pages', async ({ page }) => {
    await signIn(page, DEMO.basic);
    await capture(page, 'premium', '/inventory', heading('Premium'));
  });
});
