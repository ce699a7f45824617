import { expect, test } from './fixtures';

test.describe('public pages, contact form and theme', () => {
  const pages = [
    { path: '/', heading: "The bond desk for India's debt market" },
    { path: '/about', heading: "Making India's bond market easier to trade" },
    { path: '/best-practices', heading: 'Best practices' },
    { path: '/chat-policy', heading: 'Chat policy' },
    { path: '/privacy', heading: 'Privacy' },
    { path: '/terms', heading: 'Terms of use' },
    { path: '/product/dart', heading: 'The Dart workspace' },
    { path: '/product/find', heading: 'Find: every Indian bond, understood' },
    { path: '/find', heading: 'Find' },
    { path: '/security/INE040A08567', heading: 'HDFC Bank Limited 7.78% NCD 27-Mar-2027' },
  ];
  for (const { path, heading } of pages) {
    test(`${path} renders for visitors`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    });
  }

  test('the contact form validates and sends a message', async ({ page }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact us' });
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('Name is required.')).toBeVisible();
    await expect(form.getByText('Message is required.')).toBeVisible();
    await form.getByLabel('Name').fill('Ravi Kumar');
    await form.getByLabel('Email').fill('ravi@example-fund.in');
    await form.getByLabel('Company').fill('Example Fund');
    await form.getByLabel('Message').fill('We would like a demo of the Dart workspace for our fixed-income desk.');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Message sent')).toBeVisible();
    await expect(page.getByText('Our team will reply to ravi@example-fund.in.')).toBeVisible();
  });

  test('the theme toggle switches light and dark and the choice survives a reload', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.reload();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  test('without a stored choice the theme follows the system setting', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/about');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });

  test('going offline and back shows the connectivity toasts', async ({ page, context }) => {
    await page.goto('/contact');
    await context.setOffline(true);
    await expect(page.getByText('You are offline')).toBeVisible();
    await context.setOffline(false);
    await expect(page.getByText('Connected')).toBeVisible();
    await expect(page.getByText('You are offline')).toBeHidden();
  });
});
