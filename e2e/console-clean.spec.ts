/**
 * The browser console stays clean (issue 12 fix 6) on the pages that used to dirty it: /dart logged
 * AG Grid error #200 (the runs grid's header tooltips had no TooltipModule) and /api/docs broke its
 * Content-Security-Policy with Swagger UI's inline styles. The shared fixture (./fixtures) fails any
 * test on a console error, an uncaught error or a request the app dropped; these tests open the pages.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, signIn } from './helpers';

/** Second Bank's dealer publishes a bid on the HDFC NCD, so the public runs grid has a row; the returned call closes it. */
async function publishRun(request: APIRequestContext): Promise<() => Promise<void>> {
  const token = await request.post('/api/token/', { data: { email: DEMO.secondDealer, password: DEMO_PASSWORD } });
  const { access } = (await token.json()) as { access: string };
  const bond = (await (await request.get('/api/finstrument/INE040A08567/')).json()) as { id: number };
  const raised = await request.post('/api/trade/eoi/', {
    headers: { authorization: `Bearer ${access}` },
    data: {
      finstrument_id: bond.id,
      quote_type: 'BID',
      quantum: 500_000,
      yield_stored: 0.0741,
      expiry_date_stored: new Date(Date.now() + 30 * 60_000).toISOString(),
    },
  });
  expect(raised.status(), await raised.text()).toBe(201);
  const { id } = (await raised.json()) as { id: string };
  return async () => {
    const closed = await request.put(`/api/trade/d/eoi/${id}/close/`, { headers: { authorization: `Bearer ${access}` }, data: {} });
    expect(closed.status(), await closed.text()).toBe(200);
  };
}

test.describe('Clean console', () => {
  test('/dart loads its grids and panels without a console error; the runs grid header tooltips work', async ({ page, request }) => {
    // Closed again at the end: later specs count the HDFC rows of the blotter.
    const close = await publishRun(request);
    await signIn(page, DEMO.dealer);
    await page.goto('/dart');
    await expect(page.getByRole('heading', { name: 'Workspace', level: 1 })).toBeVisible();
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'connected');
    const grid = page.getByTestId('grid-public-runs');
    await expect(grid.getByRole('row').nth(1)).toBeVisible();
    await grid.getByRole('columnheader', { name: 'Ends' }).hover();
    await expect(page.getByText('Time left to the end of the validity')).toBeVisible();
    // Panels mounted, their data loaded: give late effects a moment to misbehave.
    await page.waitForTimeout(1_000);
    await close();
  });

  test('/api/docs renders Swagger UI within its Content-Security-Policy', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto('/api/docs');
    await expect(page.locator('.swagger-ui .info .title')).toContainText('API');
    await expect(page.locator('.swagger-ui .opblock').first()).toBeVisible();
    await page.locator('.swagger-ui .opblock-summary').first().click();
    await page.waitForTimeout(500);
    expect(violations).toEqual([]);
  });
});
