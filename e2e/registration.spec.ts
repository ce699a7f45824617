import { expect, test } from './fixtures';
import { DEMO, outboxFor, outboxIds, readNewOtp, signIn } from './helpers';

test.describe('client registration', () => {
  test('a new client verifies the e-mail with a code, registers and lands signed in', async ({ page, request }) => {
    const stamp = Date.now();
    const email = `treasury-${stamp}@acme-finance.in`;
    const seen = await outboxIds(request, email);

    await page.goto('/client/register');
    await expect(page.getByRole('heading', { name: 'Register your organisation' })).toBeVisible();
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByRole('button', { name: 'Send verification code' }).click();
    const code = await readNewOtp(request, email, seen);
    await page.getByRole('textbox', { name: 'Verification code' }).fill(code);
    await page.getByRole('button', { name: 'Verify e-mail', exact: true }).click();
    await expect(page.getByText('E-mail verified')).toBeVisible();

    const details = page.getByRole('form', { name: 'Your details' });
    // The spec's field messages, from the shared schemas, before anything is sent.
    await details.getByRole('textbox', { name: 'PAN', exact: true }).fill('12345');
    await details.getByLabel('Mobile number').fill('12345');
    await details.getByRole('button', { name: 'Create account' }).click();
    await expect(details.getByText('Please enter a valid PAN (10 Digits).')).toBeVisible();
    await expect(details.getByText('Please enter a valid Phone number.')).toBeVisible();
    await expect(details.getByText('First name is required.')).toBeVisible();

    await details.getByLabel('First name').fill('Asha');
    await details.getByLabel('Last name').fill('Rao');
    await details.getByLabel('Mobile number').fill('98765 43210');
    await details.getByRole('textbox', { name: 'PAN', exact: true }).fill('abcpr1234k');
    await details.getByLabel('Company name').fill('Acme Finance');
    await details.getByRole('textbox', { name: 'Password', exact: true }).fill('Treasury2024');
    await details.getByRole('button', { name: 'Create account' }).click();

    await expect(page).toHaveURL(/\/dart$/);
    await expect(page.getByText('Welcome to Dart, Asha')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu' })).toContainText('Acme Finance');
  });

  test('an ops admin invites a colleague, who joins the organisation through the e-mailed link', async ({ page, browser, request }) => {
    await signIn(page, DEMO.opsAdmin);
    await page.goto('/manage-users');
    await expect(page.getByRole('table', { name: 'Users' }).getByText(DEMO.dealer)).toBeVisible();
    const email = `analyst-${Date.now()}@demo.dart`;
    await page.getByRole('button', { name: 'Invite user' }).click();
    const form = page.getByRole('form', { name: 'Invite a user' });
    await form.getByLabel('Email').fill(email);
    await form.getByRole('checkbox', { name: 'Viewer' }).check();
    await form.getByRole('checkbox', { name: 'Dealer' }).uncheck();
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('table', { name: 'Pending invitations' }).getByText(email)).toBeVisible();

    const [invitation] = await outboxFor(request, email);
    const link = /\/client\/register\?invite=[^\s]+/.exec(invitation?.body ?? '')?.[0];
    expect(link, 'the invitation e-mail carries a registration link').toBeTruthy();

    const context = await browser.newContext();
    const invitee = await context.newPage();
    await invitee.goto(link as string);
    await expect(invitee.getByRole('heading', { name: 'Join Demo Capital on Dart' })).toBeVisible();
    await expect(invitee.getByLabel('Work e-mail')).toHaveValue(email);
    const seen = await outboxIds(request, email);
    await invitee.getByRole('button', { name: 'Send verification code' }).click();
    const code = await readNewOtp(request, email, seen);
    await invitee.getByRole('textbox', { name: 'Verification code' }).fill(code);
    await invitee.getByRole('button', { name: 'Verify e-mail', exact: true }).click();
    const details = invitee.getByRole('form', { name: 'Your details' });
    await details.getByLabel('First name').fill('Meera');
    await details.getByLabel('Last name').fill('Iyer');
    await details.getByLabel('Mobile number').fill('+91 91234 56780');
    await details.getByRole('textbox', { name: 'PAN', exact: true }).fill('AAAPI1234Q');
    await details.getByRole('textbox', { name: 'Password', exact: true }).fill('Analyst2024');
    await details.getByRole('button', { name: 'Create account' }).click();
    await expect(invitee).toHaveURL(/\/dart$/);
    await expect(invitee.getByRole('button', { name: 'Account menu' })).toContainText('Demo Capital');
    await context.close();
  });
});
