/**
 * The notification centre (issue 15 §3) in two Chromium contexts: Demo Capital's dealer posts a bid, Second Bank's
 * dealer counters it, and Demo Capital's bell lights up live (no reload) with a toast in the notification group;
 * the notification is in the inbox, survives a reload, and opening it marks it read. Then the inbox in light and dark.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { chooseTicketBond, DEMO, openWorkspace } from './helpers';

const HDFC_BOND = 'HDFC Bank Limited 7.78% NCD 27-Mar-2027';
/** A yield no other spec posts, so this spec finds its own quote in the shared public runs. */
const BID_YIELD = '7.8123';

const bell = (page: Page) => page.getByTestId('notification-bell');
const unreadOf = async (page: Page) => Number(await page.getByTestId('notification-unread').getAttribute('data-count'));

test.describe('Notifications', () => {
  test("a counter on a quote lights the other dealer's bell live, and the notification survives a reload", async ({ browser }) => {
    const demo = await openWorkspace(browser, DEMO.dealer);
    const second = await openWorkspace(browser, DEMO.secondDealer);
    await expect(bell(demo)).toBeVisible();
    const before = await unreadOf(demo);

    // Demo Capital bids on the HDFC NCD.
    const ticket = await chooseTicketBond(demo, 'HDFC', HDFC_BOND);
    await ticket.getByRole('textbox', { name: /^Yield \(%\)/ }).fill(BID_YIELD);
    await ticket.getByRole('textbox', { name: /^Face value/ }).fill('1cr');
    const posted = demo.waitForResponse((r) => r.url().endsWith('/api/trade/eoi/') && r.request().method() === 'POST');
    await ticket.getByRole('button', { name: 'Post bid' }).click();
    expect((await posted).status()).toBe(201);

    // Second Bank counters it.
    const row = second
      .getByTestId('grid-public-runs')
      .getByRole('row')
      .filter({ hasText: HDFC_BOND })
      .filter({ hasText: `${BID_YIELD}%` });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: `Counter the bid on ${HDFC_BOND}` }).click();
    const dialog = second.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /^Yield \(%\)/ }).fill('7.8456');
    await dialog.getByRole('button', { name: 'Send counter' }).click();
    await expect(dialog.getByText('Waiting for the other side')).toBeVisible();
    await second.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Demo Capital's bell counts it without a reload, and the toast shows in the notification group (top-right).
    await expect(demo.getByTestId('notification-unread')).toHaveAttribute('data-count', String(before + 1));
    await expect(bell(demo)).toHaveAccessibleName(`Notifications, ${before + 1} unread`);
    const toast = demo.locator('.mantine-Notification-root').filter({ hasText: 'Counter received' });
    await expect(toast).toBeVisible();
    const box = (await toast.boundingBox())!;
    const viewport = demo.viewportSize()!;
    expect(box.x + box.width).toBeGreaterThan(viewport.width - 40);
    expect(box.y).toBeLessThan(viewport.height / 2);
    // Second Bank, who countered, is not told about its own counter.
    await expect(second.getByTestId('notification-unread')).toHaveAttribute('data-count', /\d+/);
    await bell(second).click();
    await expect(second.getByTestId('notification-list')).toBeVisible();
    await expect(second.getByTestId('notification-list')).not.toContainText('7.8456%');
    await second.keyboard.press('Escape');

    // After a reload the count and the notification are still there (they live on the server).
    await demo.reload();
    await expect(demo.getByTestId('live-status')).toHaveAttribute('data-status', 'connected');
    await expect(demo.getByTestId('notification-unread')).toHaveAttribute('data-count', String(before + 1));
    await bell(demo).click();
    const item = demo.getByTestId('notification-item').first();
    await expect(item).toContainText('Counter received');
    await expect(item).toContainText(HDFC_BOND);
    await expect(item).toContainText('7.8456%');
    await expect(item).toHaveAttribute('data-unread', 'true');

    for (const theme of ['light', 'dark'] as const) {
      await demo.emulateMedia({ colorScheme: theme });
      await expect(demo.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await demo.screenshot({ path: `test-results/screenshots/notifications-inbox-${theme}.png` });
    }

    // Opening it marks it read (and follows its link to the workspace).
    await item.click();
    await expect(demo.getByTestId('notification-unread')).toHaveAttribute('data-count', String(before));
    await expect(demo).toHaveURL(/\/dart$/);
    await bell(demo).click();
    await expect(demo.getByTestId('notification-item').first()).not.toHaveAttribute('data-unread', 'true');
    // Mark all read empties the count.
    const markAll = demo.getByRole('button', { name: 'Mark all read' });
    if (before > 0) await markAll.click();
    await expect(demo.getByTestId('notification-unread')).toHaveAttribute('data-count', '0');
    await expect(markAll).toBeDisabled();

    await demo.context().close();
    await second.context().close();
  });
});
