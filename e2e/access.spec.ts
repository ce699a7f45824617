import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

test.describe('route access and error pages', () => {
  test('a dealer on /surveillance gets the 401 page, and Back to Home goes to /dart', async ({ page }) => {
    await signIn(page, DEMO.dealer);
    await page.goto('/surveillance');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(page.getByText('Please contact your administrator for access.')).toBeVisible();
    // Rendered in the route's own layout (dart): the app header is there.
    await expect(page.locator('[data-layout="dart"]')).toBeVisible();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/dart$/);
  });

  test('a compliance officer on /dart gets the 401 page', async ({ page }) => {
    await signIn(page, DEMO.compliance);
    await page.goto('/dart');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/surveillance$/);
  });

  test('a viewer on /manage-users gets the 401 page', async ({ page }) => {
    await signIn(page, DEMO.viewer);
    await page.goto('/manage-users');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  });

  test('an unknown route shows the 404 page with its path', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible();
    await expect(page.getByText('Page not found: /no-such-page')).toBeVisible();
    // Visitors see it in the nofooter layout.
    await expect(page.locator('[data-layout="nofooter"]')).toBeVisible();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a signed-in user sees the 404 page in the logged-in layout', async ({ page }) => {
    await signIn(page, DEMO.dealer);
    await page.goto('/dart/nothing-here');
    await expect(page.getByText('Page not found: /dart/nothing-here')).toBeVisible();
    await expect(page.locator('[data-layout="dart"]')).toBeVisible();
  });

  test('a BASIC-tier dealer gets the 402 page on /inventory and can request an upgrade', async ({ page }) => {
    await signIn(page, DEMO.basic);
    await page.goto('/inventory');
    await expect(page.getByRole('heading', { name: 'Premium' })).toBeVisible();
    await expect(page.getByText('Execute trades from a single screen', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Request Upgrade' }).click();
    // An access ticket on the support desk, with the spec's toast; the user follows it in My requests.
    await expect(page.getByText('Your request has been noted. We will update you shortly via email.', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upgrade requested' })).toBeDisabled();
    await page.goto('/support/requests');
    await expect(
      page
        .getByRole('table', { name: 'My requests' })
        .getByRole('row')
        .filter({ hasText: 'Inventory access: Please upgrade our organisation to the Premium plan.' })
        .first(),
    ).toBeVisible();
  });

  test('a BASIC-tier dealer gets the 402 page on /client/transactions', async ({ page }) => {
    await signIn(page, DEMO.basic);
    await page.goto('/client/transactions');
    await expect(page.getByRole('heading', { name: 'Premium' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Home' })).toBeVisible();
  });

  test('a premium dealer opens /inventory (the book, no 402)', async ({ page }) => {
    await signIn(page, DEMO.dealer);
    await page.goto('/inventory');
    await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
    // Empty or not (other specs may have uploaded a book), the dealer may upload one; never the Premium page.
    await expect(page.getByRole('button', { name: 'Upload book' }).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Premium' })).toHaveCount(0);
  });

  test('an invalid invitation link shows the 410 page', async ({ page, consoleGuard }) => {
    // The invitation lookup answers 410, which the browser logs.
    consoleGuard.allow(/status of 410 .*\/api\/invites\/bad\/\)$/);
    await page.goto('/client/register?invite=bad');
    await expect(page.getByRole('heading', { name: 'Invitation URL invalid' })).toBeVisible();
    await expect(page.locator('[data-layout="bare"]')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Home' })).toBeVisible();
  });

  test('/market follows the redirect lookup to the workspace', async ({ page }) => {
    await signIn(page, DEMO.dealer);
    await page.goto('/market');
    await expect(page).toHaveURL(/\/dart$/);
  });
});
