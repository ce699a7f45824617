/**
 * Issue 15 §2, the support desk in the browser: a dealer raises a query with an attachment through the support
 * modal (the spec's toast word for word), Dart Support (support@dart.in) finds it in the queue, opens the
 * attachment's ticket, replies and changes the status; the dealer sees the reply, the status and the unread badge,
 * which clears when the request is opened.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

/** 1×1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function screenshots(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.waitForTimeout(350); // transitions settle before the picture
    await page.screenshot({ path: `test-results/screenshots/${name}-${theme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('support desk', () => {
  test('a dealer raises a query with an attachment, Dart Support replies, the dealer sees the reply and status', async ({
    page,
    browser,
  }) => {
    const question = `Which plans include live market depth? ${Date.now()}`;
    await signIn(page, DEMO.dealer);
    await page.goto('/support/requests');
    await expect(page.getByRole('heading', { name: 'My requests', level: 1 })).toBeVisible();

    // The support modal from the header: the request type and the text are required, with the contracts' messages.
    await page.getByRole('button', { name: 'Contact support' }).click();
    const modal = page.getByRole('dialog', { name: 'Contact support' });
    await modal.getByRole('button', { name: 'Send' }).click();
    await expect(modal.getByText('Choose a request type.')).toBeVisible();
    await expect(modal.getByText('Please describe your request.')).toBeVisible();
    await modal.getByRole('combobox', { name: 'What is it about?' }).click();
    await page.getByRole('option', { name: 'Pricing', exact: true }).click();
    await modal.getByRole('textbox', { name: 'How can we help?' }).fill(question);
    await modal.locator('input[type="file"]').setInputFiles({ name: 'depth-screen.png', mimeType: 'image/png', buffer: PNG });
    await expect(modal.getByText('depth-screen.png')).toBeVisible();
    await screenshots(page, 'support-modal');
    await modal.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Your query has been noted. We will respond shortly via email.', { exact: true })).toBeVisible();
    await expect(modal).toBeHidden();

    const mine = page.getByRole('table', { name: 'My requests' });
    const myRow = mine.getByRole('row').filter({ hasText: 'Pricing: Which plans include' });
    await expect(myRow).toHaveCount(1);
    await expect(myRow.getByTestId('ticket-status')).toHaveText('Open');

    // Dart Support works the queue.
    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await signIn(staff, DEMO.support);
    await staff.getByRole('button', { name: 'Account menu' }).click();
    await staff.getByRole('menuitem', { name: 'Support queue' }).click();
    await expect(staff).toHaveURL(/\/support\/queue$/);
    const queueRow = staff
      .getByRole('table', { name: 'Support queue' })
      .getByRole('row')
      .filter({ hasText: 'Pricing: Which plans include' });
    await expect(queueRow).toContainText('Demo Capital');
    await screenshots(staff, 'support-queue');
    await queueRow.getByRole('button', { name: /^Open request #/ }).click();
    const drawer = staff.getByRole('dialog', { name: 'Support request' });
    await expect(drawer.getByText(question, { exact: true })).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'depth-screen.png' })).toBeVisible();
    await drawer.getByRole('textbox', { name: 'Reply' }).fill('Live depth is in the Premium plan. Shall we upgrade you?');
    await drawer.getByRole('button', { name: 'Send reply' }).click();
    await expect(drawer.getByTestId('ticket-message-staff')).toContainText('Live depth is in the Premium plan.');
    await expect(drawer.getByTestId('ticket-status')).toHaveText('In progress');
    await drawer.getByRole('combobox', { name: 'Change status' }).click();
    await staff.getByRole('option', { name: 'Waiting on you', exact: true }).click();
    await drawer.getByRole('button', { name: 'Save status' }).click();
    await expect(drawer.getByTestId('ticket-status')).toHaveText('Waiting on you');
    await screenshots(staff, 'support-queue-ticket');

    // The dealer sees the status, the reply and the badge; opening the request clears the badge.
    await page.reload();
    const row = page.getByRole('table', { name: 'My requests' }).getByRole('row').filter({ hasText: 'Pricing: Which plans include' });
    await expect(row.getByTestId('ticket-status')).toHaveText('Waiting on you');
    await expect(row.getByTestId('ticket-unread')).toContainText('1 new');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menuitem', { name: /My requests/ }).getByTestId('support-unread')).toHaveText(/^1/);
    await page.keyboard.press('Escape');
    await screenshots(page, 'support-my-requests');
    await row.getByRole('button', { name: /^Open request #/ }).click();
    const mineDrawer = page.getByRole('dialog', { name: 'My request' });
    const reply = mineDrawer.getByTestId('ticket-message-staff');
    await expect(reply).toContainText('Dart Support');
    await expect(reply).toContainText('Live depth is in the Premium plan. Shall we upgrade you?');
    await expect(row.getByTestId('ticket-unread')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menuitem', { name: /My requests/ })).toBeVisible();
    await expect(page.getByTestId('support-unread')).toHaveCount(0);
  });

  test("report an issue, feedback and a message each raise their ticket type with the spec's toast", async ({ page }) => {
    await signIn(page, DEMO.viewer);
    await page.goto('/support/requests');
    const send = async (segment: string, label: string, text: string, toast: string) => {
      await page.getByRole('button', { name: 'Contact support' }).click();
      const modal = page.getByRole('dialog');
      await modal.getByText(segment, { exact: true }).click();
      await modal.getByRole('textbox', { name: label }).fill(text);
      if (segment === 'Report an issue') {
        await modal.getByRole('checkbox', { name: 'Maturity date seems incorrect' }).check();
        await expect(
          modal.getByRole('checkbox', {
            name: 'Share pricing details entered by you with our support team. This helps to resolve issues quicker.',
          }),
        ).toBeChecked();
      }
      await modal.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByText(toast, { exact: true })).toBeVisible();
      await expect(modal).toBeHidden();
    };
    // A viewer is view-only for business writes, but may always ask for help.
    await send(
      'Report an issue',
      'What went wrong?',
      'The maturity of a bond looks wrong.',
      'Thank you for reporting the issue. We will update you shortly via email.',
    );
    await send('Feedback', 'Your feedback', 'The new search is quick.', 'Thank you for your valuable feedback');
    await send('Message us', 'Message', 'Please call me about onboarding.', 'Your message has been noted');
    const table = page.getByRole('table', { name: 'My requests' });
    await expect(table.getByRole('row').filter({ hasText: 'Report issue: The maturity of a bond looks wrong.' })).toHaveCount(1);
    await expect(table.getByRole('row').filter({ hasText: 'Feedback: The new search is quick.' })).toHaveCount(1);
    await expect(table.getByRole('row').filter({ hasText: 'Contact form: Please call me about onboarding.' })).toHaveCount(1);
  });

  test("a bond page's Report an issue raises an issue ticket on the desk", async ({ page, request }) => {
    const bond = await request.get('/api/finstrument/IN0020220151/');
    expect(bond.ok()).toBeTruthy();
    const { id } = (await bond.json()) as { id: number };
    const text = `The call date of 7.26% GS 2033 looks wrong ${Date.now()}`;
    await signIn(page, DEMO.dealer);
    await page.goto(`/security/${id}`);
    await page.getByRole('button', { name: 'Report an issue' }).click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('checkbox', { name: 'Call/put information seems incorrect' }).check();
    await modal.getByRole('textbox', { name: 'What went wrong?' }).fill(text);
    await modal.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Thank you for reporting the issue. We will update you shortly via email.', { exact: true })).toBeVisible();
    await expect(modal).toBeHidden();
    await page.goto('/support/requests');
    await expect(
      page
        .getByRole('table', { name: 'My requests' })
        .getByRole('row')
        .filter({ hasText: `Report issue: ${text}` }),
    ).toHaveCount(1);
  });

  test('a dealer does not see the queue; the page says it is Dart Support only', async ({ page }) => {
    await signIn(page, DEMO.dealer);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'My requests' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Support queue' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto('/support/queue');
    await expect(page.getByText('Dart Support only')).toBeVisible();
  });
});
