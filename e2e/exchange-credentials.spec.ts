/**
 * Issue 14, exchange credentials in Chromium: the ops admin opens /exchange-credentials, picks a participant
 * from NSE Clearing's published list with the keyboard, enters the participant code, username and password,
 * saves, and sees "Set on {date} by Kavita Rao"; the form is emptied and the password is never shown again.
 * Demo Capital keeps holding NSCCL credentials afterwards, so the other specs' NSE RFQs are unaffected.
 */
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

test.use({ viewport: { width: 1440, height: 900 } });

test('an ops admin sets NSCCL credentials and sees only "Set on {date} by {user}"', async ({ page }) => {
  const password = `E2e-Nse-${Date.now().toString(36)}`;
  await signIn(page, DEMO.opsAdmin);
  await page.goto('/exchange-credentials');
  await expect(page.getByRole('heading', { name: 'Exchange credentials', level: 1 })).toBeVisible();
  const nse = page.getByRole('form', { name: 'NSE Clearing (NSCCL) credentials' });
  await expect(page.getByRole('region', { name: /NSE RFQ/ })).toBeVisible();
  await expect(page.getByRole('region', { name: /BSE RFQ/ })).toBeVisible();

  // The participant combobox is fed by GET api/search-nsscl-participants/; chosen with the keyboard.
  const participant = nse.getByLabel('Participant', { exact: true });
  await participant.click();
  await participant.pressSequentially('hdfc');
  await expect(page.getByRole('option', { name: 'HDFC Bank Ltd.' })).toBeVisible();
  await expect(page.getByRole('option')).toHaveCount(1);
  await participant.press('ArrowDown');
  await participant.press('Enter');
  await expect(participant).toHaveValue('HDFC Bank Ltd.');

  // Nothing is prefilled, and a missing field is named before anything is sent.
  await expect(nse.getByRole('textbox', { name: 'Username' })).toHaveValue('');
  await expect(nse.getByRole('textbox', { name: 'Password', exact: true })).toHaveValue('');
  await nse.getByRole('button', { name: /NSCCL credentials/ }).click();
  await expect(nse.getByText('Enter the participant code.')).toBeVisible();

  await nse.getByLabel('Participant code').fill('M50213');
  await nse.getByRole('textbox', { name: 'Username' }).fill('democapital.rfq');
  await nse.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await nse.getByRole('button', { name: /NSCCL credentials/ }).click();

  await expect(page.getByText('NSE Clearing (NSCCL) credentials saved.')).toBeVisible();
  await expect(page.getByTestId('credentials-status-NSCCL')).toHaveText(/^Set on \d{2} [A-Z][a-z]{2} \d{4} by Kavita Rao$/);
  await expect(page.getByText('Participant: HDFC Bank Ltd. (M50213)')).toBeVisible();
  await expect(nse.getByRole('textbox', { name: 'Password', exact: true })).toHaveValue('');
  await expect(nse.getByRole('textbox', { name: 'Username' })).toHaveValue('');
  expect(await page.content()).not.toContain(password);

  await page.screenshot({ path: 'test-results/screenshots/exchange-credentials.png', fullPage: true });
});
