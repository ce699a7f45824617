/**
 * The /dart docking workspace (issue 12 §2 and §5 fix 9): a panel closed stays closed after a reload
 * and on a second machine (the server's copy), Reset layout brings the default back, the Panels menu
 * re-opens a closed panel; at 1280×800 runs, RFQs, negotiations and chat are all in view without
 * page scrolling; at 390×844 one panel shows at a time with a switcher.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

/** Back office: a user no other spec arranges the workspace of. */
const USER = DEMO.backOffice;

const tab = (page: Page, title: string): Locator => page.getByRole('tab', { name: title, exact: true });
const closeTab = (page: Page, title: string): Locator => page.getByRole('button', { name: `Close ${title}`, exact: true });

async function openWorkspace(page: Page): Promise<void> {
  await page.goto('/dart');
  await expect(page.getByRole('heading', { name: 'Workspace', level: 1 })).toBeVisible();
  await expect(tab(page, 'Public runs')).toBeVisible();
}

/** Waits for the workspace's debounced save of the layout to reach the server. */
const layoutSaved = (page: Page) =>
  page.waitForResponse(
    (response) => response.url().endsWith('/api/workspace/layout/') && response.request().method() === 'PUT' && response.ok(),
  );

async function secondMachine(browser: Browser): Promise<Page> {
  // A new context: no localStorage, so only the server's copy can bring the layout.
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 860 } })).newPage();
  await signIn(page, USER);
  await openWorkspace(page);
  return page;
}

function inViewport(box: { x: number; y: number; width: number; height: number } | null, width: number, height: number): boolean {
  return Boolean(
    box &&
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= width + 1 &&
    box.y + box.height <= height + 1 &&
    box.width > 40 &&
    box.height > 40,
  );
}

test.describe('Docking workspace', () => {
  test('a closed panel stays closed after a reload and on a second machine; Reset layout and the Panels menu bring panels back', async ({
    page,
    browser,
  }) => {
    await signIn(page, USER);
    await openWorkspace(page);
    // The default (Trader) layout: every panel is there, Negotiations among them.
    await expect(tab(page, 'Negotiations')).toBeVisible();
    await expect(tab(page, 'Build Network')).toBeVisible();

    const saved = layoutSaved(page);
    await closeTab(page, 'Negotiations').click();
    await expect(tab(page, 'Negotiations')).toHaveCount(0);
    await saved;

    await page.reload();
    await expect(tab(page, 'Public runs')).toBeVisible();
    await expect(tab(page, 'Negotiations')).toHaveCount(0);

    const other = await secondMachine(browser);
    await expect(tab(other, 'Negotiations')).toHaveCount(0);
    await expect(tab(other, 'Chat')).toBeVisible();

    // Reset layout: the default again, here and (once saved) on the server.
    const reset = layoutSaved(page);
    await page.getByRole('button', { name: 'Layout' }).click();
    await page.getByRole('menuitem', { name: 'Reset layout' }).click();
    await expect(tab(page, 'Negotiations')).toBeVisible();
    await reset;

    // The Panels menu re-opens a closed panel.
    await tab(page, 'Ticketing').click();
    await closeTab(page, 'Ticketing').click();
    await expect(tab(page, 'Ticketing')).toHaveCount(0);
    await page.getByRole('button', { name: 'Panels' }).click();
    await page.getByRole('menuitem', { name: 'Ticketing' }).click();
    await expect(tab(page, 'Ticketing')).toBeVisible();
    await expect(page.getByTestId('dock-panel-ticketing')).toBeVisible();

    // Maximise a group, then restore it.
    await tab(page, 'Chat').click();
    const chatWidth = async () => (await page.getByTestId('dock-panel-chat').boundingBox())?.width ?? 0;
    const docked = await chatWidth();
    await page.getByRole('button', { name: 'Maximise Chat' }).click();
    await expect.poll(chatWidth).toBeGreaterThan(docked * 2);
    await page.getByRole('button', { name: 'Restore Chat' }).click();
    await expect.poll(chatWidth).toBeLessThan(docked + 2);

    // Leave the default for the next run.
    const back = layoutSaved(page);
    await page.getByRole('button', { name: 'Layout' }).click();
    await page.getByRole('menuitem', { name: 'Reset layout' }).click();
    await back;
    await other.context().close();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1440, height: 900 },
  ]) {
    test(`at ${viewport.width}×${viewport.height} runs, RFQs, negotiations and chat are in view without page scrolling`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await signIn(page, USER);
      await openWorkspace(page);
      for (const id of ['public-runs', 'private-runs', 'rfq-quotes', 'negotiations', 'chat']) {
        const panel = page.getByTestId(`dock-panel-${id}`);
        await expect(panel, id).toBeVisible();
        expect(inViewport(await panel.boundingBox(), viewport.width, viewport.height), `${id} inside the viewport`).toBe(true);
      }
      const { scrollHeight, innerHeight } = await page.evaluate(() => ({
        scrollHeight: document.scrollingElement!.scrollHeight,
        innerHeight: window.innerHeight,
      }));
      expect(scrollHeight).toBeLessThanOrEqual(innerHeight);
      // The LIVE badge reads in full (it once shrank to "LI…").
      const live = page.getByTestId('live-status');
      await expect(live).toBeVisible();
      expect(await live.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    });
  }

  test('at 390×844 one panel shows at a time and the switcher changes it', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, USER);
    await page.goto('/dart');
    await expect(page.getByRole('heading', { name: 'Workspace', level: 1 })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveCount(0);
    const switcher = page.getByTestId('panel-switcher');
    await expect(switcher).toHaveValue('Chat');
    await expect(page.getByTestId('dock-panel-chat')).toBeVisible();
    await expect(page.locator('[data-testid^="dock-panel-"]')).toHaveCount(1);

    await switcher.click();
    await page.getByRole('option', { name: 'RFQ quotes' }).click();
    await expect(page.getByTestId('dock-panel-rfq-quotes')).toBeVisible();
    await expect(page.locator('[data-testid^="dock-panel-"]')).toHaveCount(1);
    // The page does not scroll sideways: the panel fits the phone.
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });
});
