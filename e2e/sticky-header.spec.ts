/**
 * The sticky headers (issue 12 fix 4) stay on top while the page scrolls: nothing of the page is
 * drawn over them. Checked by hit-testing points across the header after scrolling, on the pages
 * with the most layered content (the calculator, the Find grid) and a public page (the docked /dart
 * workspace does not scroll the page at all);
 * pictures in light and dark land in test-results/screenshots/sticky-header-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

/**
 * At each scroll step the header is at the top, every sampled point across its band hits the header
 * itself (nothing is stacked over it), and it looks exactly as it did unscrolled (nothing shows
 * through it: it was transparent when the build dropped its light-dark() background).
 */
async function expectHeaderOnTop(page: Page): Promise<void> {
  const header = page.locator('header').first();
  await expect(header).toBeVisible();
  // The pointer away from the header and from anything with a tooltip near it.
  await page.mouse.move(2, 700);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150);
  const unscrolled = await header.screenshot({ animations: 'disabled' });
  const height = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  expect(height, 'the page must be long enough to scroll').toBeGreaterThan(100);
  for (const fraction of [0.15, 0.35, 0.6, 1]) {
    await page.evaluate((y) => window.scrollTo(0, y), Math.round(height * fraction));
    // Let sticky positioning and any scroll-driven rendering (grids) settle.
    await page.waitForTimeout(150);
    const covered = await page.evaluate(() => {
      const band = document.querySelector('header')!.getBoundingClientRect();
      const misses: string[] = [];
      for (let x = 4; x < window.innerWidth; x += 24) {
        for (const y of [band.top + 2, band.top + band.height / 2, band.bottom - 2]) {
          const hit = document.elementFromPoint(x, y);
          if (hit && !hit.closest('header'))
            misses.push(`${Math.round(x)},${Math.round(y)}: ${hit.tagName.toLowerCase()}.${hit.className}`);
        }
      }
      return { top: band.top, misses: misses.slice(0, 10) };
    });
    expect(covered.top, `header at the top after scrolling ${fraction * 100}%`).toBe(0);
    expect(covered.misses, `page content drawn over the header after scrolling ${fraction * 100}%`).toEqual([]);
    const scrolled = await header.screenshot({ animations: 'disabled' });
    expect(scrolled.equals(unscrolled), `page content shows through the header after scrolling ${fraction * 100}%`).toBe(true);
  }
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `test-results/screenshots/sticky-header-${name}-${theme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('Sticky header', () => {
  test('nothing on the signed-in pages draws over the app header while scrolling', async ({ page }) => {
    await signIn(page, DEMO.dealer);
    await page.goto('/dart');
    await expect(page.getByRole('heading', { name: 'Workspace', level: 1 })).toBeVisible();
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'connected');
    // The docked workspace fills the window below the header and never scrolls the page (its panels
    // scroll inside themselves), so there is nothing to draw over the header here.
    const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(overflow, 'the /dart page itself does not scroll').toBeLessThanOrEqual(1);
    await shoot(page, 'dart');

    await page.goto('/security/INE040A08567');
    await expect(page.getByTestId('consideration-total')).toBeVisible();
    await expectHeaderOnTop(page);
    await page.evaluate(() => window.scrollTo(0, 500));
    await shoot(page, 'security');

    await page.goto('/find');
    await expect(page.getByTestId('find-grid').getByRole('row').nth(1)).toBeVisible();
    await expectHeaderOnTop(page);
  });

  test('nothing on a public page draws over the site header while scrolling', async ({ page }) => {
    await page.goto('/terms');
    await expect(page.getByRole('heading', { name: 'Terms of use', level: 1 })).toBeVisible();
    await expectHeaderOnTop(page);
    await page.evaluate(() => window.scrollTo(0, 600));
    await shoot(page, 'terms');
  });
});
