/**
 * Issue 15 §1, /manage-users: an ops admin changes a member's roles (the spec's role rules in the browser, the
 * last-OpsAdmin rule from the server), deactivates and reactivates a member, and resends and revokes an invite.
 * The invite-and-join flow itself is in registration.spec.ts.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, outboxFor, signIn } from './helpers';

const usersTable = (page: Page) => page.getByRole('table', { name: 'Users' });
const userRow = (page: Page, email: string) => usersTable(page).getByTestId(`user-row-${email}`);

async function screenshots(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.waitForTimeout(350); // transitions settle before the picture
    await page.screenshot({ path: `test-results/screenshots/${name}-${theme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('manage users', () => {
  test("an ops admin changes a member's roles under the spec's rules, and deactivates and reactivates them", async ({
    page,
    consoleGuard,
  }) => {
    // The last-OpsAdmin refusal is a 400 the browser logs.
    consoleGuard.allow(/status of 400 .*\/api\/client\/user\/\)?$/);
    await signIn(page, DEMO.opsAdmin);
    await page.goto('/manage-users');
    const row = userRow(page, DEMO.backOffice);
    await expect(row).toContainText('Back Office');
    await screenshots(page, 'manage-users-actions');

    await row.getByRole('button', { name: /^Edit roles of/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Roles of Sanjay Gupta/ });
    // A viewer holds only the Viewer role: refused in the browser with the spec's rule, nothing sent.
    await dialog.getByRole('checkbox', { name: 'Viewer', exact: true }).check();
    await dialog.getByRole('button', { name: 'Save roles' }).click();
    await expect(dialog.getByText('A viewer has only the Viewer role.', { exact: true })).toBeVisible();
    // A compliance user has exactly two roles including Compliance Officer.
    await dialog.getByRole('checkbox', { name: 'Viewer', exact: true }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Compliance Officer', exact: true }).check();
    await dialog.getByRole('checkbox', { name: 'Dealer', exact: true }).check();
    await dialog.getByRole('button', { name: 'Save roles' }).click();
    await expect(
      dialog.getByText('A compliance user has exactly two roles, one of them Compliance Officer.', { exact: true }),
    ).toBeVisible();
    await screenshots(page, 'manage-users-edit-roles');

    await dialog.getByRole('checkbox', { name: 'Compliance Officer', exact: true }).uncheck();
    await dialog.getByRole('button', { name: 'Save roles' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Roles saved')).toBeVisible();
    await expect(row).toContainText('Dealer');
    await page.reload();
    await expect(userRow(page, DEMO.backOffice)).toContainText('Dealer');
    await expect(userRow(page, DEMO.backOffice)).toContainText('Back Office');

    // The server's rule: the firm's last OpsAdmin keeps the role; its message lands on the roles field.
    await userRow(page, DEMO.opsAdmin)
      .getByRole('button', { name: /^Edit roles of/ })
      .click();
    const own = page.getByRole('dialog', { name: /^Roles of Kavita Rao/ });
    await own.getByRole('checkbox', { name: 'OpsAdmin', exact: true }).uncheck();
    await own.getByRole('checkbox', { name: 'Dealer', exact: true }).check();
    await own.getByRole('button', { name: 'Save roles' }).click();
    await expect(own.getByRole('alert')).toContainText('The last OpsAdmin of the organisation cannot be removed.');
    await own.getByRole('button', { name: 'Cancel' }).click();

    // Back as it was: Back Office only.
    await userRow(page, DEMO.backOffice)
      .getByRole('button', { name: /^Edit roles of/ })
      .click();
    const again = page.getByRole('dialog', { name: /^Roles of Sanjay Gupta/ });
    await again.getByRole('checkbox', { name: 'Dealer', exact: true }).uncheck();
    await again.getByRole('button', { name: 'Save roles' }).click();
    await expect(again).toBeHidden();
    await expect(userRow(page, DEMO.backOffice)).not.toContainText('Dealer');

    // Deactivate, then reactivate.
    await userRow(page, DEMO.backOffice).getByRole('button', { name: 'Deactivate Sanjay Gupta' }).click();
    await page.getByRole('dialog', { name: 'Deactivate Sanjay Gupta?' }).getByRole('button', { name: 'Deactivate' }).click();
    await expect(userRow(page, DEMO.backOffice)).toContainText('inactive');
    await userRow(page, DEMO.backOffice).getByRole('button', { name: 'Reactivate Sanjay Gupta' }).click();
    await page.getByRole('dialog', { name: 'Reactivate Sanjay Gupta?' }).getByRole('button', { name: 'Reactivate' }).click();
    await expect(userRow(page, DEMO.backOffice).getByText('active', { exact: true })).toBeVisible();
  });

  test('an ops admin resends an invite with a new link and revokes it: the link stops working', async ({
    page,
    browser,
    request,
    consoleGuard,
  }) => {
    // The revoked link's check answers 410, which the browser logs.
    consoleGuard.allow(/status of 410 /);
    await signIn(page, DEMO.opsAdmin);
    await page.goto('/manage-users');
    const email = `revoke-${Date.now()}@demo.dart`;
    await page.getByRole('button', { name: 'Invite user' }).click();
    const form = page.getByRole('form', { name: 'Invite a user' });
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
    await page.keyboard.press('Escape');
    const invites = page.getByRole('table', { name: 'Pending invitations' });
    const inviteRow = invites.getByTestId(`invite-row-${email}`);
    await expect(inviteRow).toBeVisible();

    await inviteRow.getByRole('button', { name: `Send the invitation to ${email} again` }).click();
    await expect(page.getByText('Invitation sent again')).toBeVisible();
    const links = async () =>
      (await outboxFor(request, email)).map((message) => /\/client\/register\?invite=[^\s]+/.exec(message.body)?.[0]).filter(Boolean);
    await expect.poll(async () => (await links()).length).toBe(2);
    const [newest, first] = await links();
    expect(newest).not.toBe(first);

    await inviteRow.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this invitation?' });
    await expect(confirm).toContainText(email);
    await confirm.getByRole('button', { name: 'Revoke invitation' }).click();
    await expect(page.getByText('Invitation revoked')).toBeVisible();
    await expect(page.getByTestId(`invite-row-${email}`)).toHaveCount(0);

    // The e-mailed link no longer works.
    const context = await browser.newContext();
    const invitee = await context.newPage();
    await invitee.goto(newest as string);
    await expect(invitee.getByRole('heading', { name: 'Invitation URL invalid' })).toBeVisible();
  });
});
