/**
 * Size is face value (issue 12 §1) in two Chromium contexts against the real server: Demo Capital's
 * dealer types `5cr` in the quote ticket on a G-sec and sees what it reads (₹5 Cr, 5,00,000 bonds of
 * ₹100) before posting; Second Bank's dealer sees the bid in public runs as ₹5 Cr with its bond count.
 * A size that is not a whole number of bonds (₹1.5 L of a ₹1 L NCD) is refused with the message and
 * nothing is posted.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { chooseTicketBond, DEMO, openWorkspace } from './helpers';

/** A G-sec: ₹100 of face value a bond. */
const GSEC = '7.18% GS 2033';
/** An NCD with ₹1 L of face value a bond. */
const HDFC_NCD = 'HDFC Bank Limited 7.78% NCD 27-Mar-2027';

const publicRuns = (page: Page) => page.getByTestId('grid-public-runs');
const sizeBox = (page: Page) => page.getByRole('form', { name: 'New quote' }).getByRole('textbox', { name: /^Face value/ });

test.describe('Size is face value', () => {
  test('5cr typed at one firm shows as ₹5 Cr and 5,00,000 bonds at the other', async ({ browser }) => {
    const demo = await openWorkspace(browser, DEMO.dealer);
    const second = await openWorkspace(browser, DEMO.secondDealer);

    const ticket = await chooseTicketBond(demo, '7.18 GS 2033', GSEC);
    await ticket.getByRole('textbox', { name: /^Yield \(%\)/ }).fill('7.0123');
    await sizeBox(demo).fill('5cr');
    // What the ticket read, live, before anything is sent.
    await expect(ticket.getByTestId('face-value-preview')).toHaveText('₹5 Cr · 5,00,000 bonds');
    const posted = demo.waitForResponse((r) => r.url().endsWith('/api/trade/eoi/') && r.request().method() === 'POST');
    await ticket.getByRole('button', { name: 'Post bid' }).click();
    const response = await posted;
    expect(response.status()).toBe(201);
    expect(response.request().postDataJSON()).toMatchObject({ quantum: 50_000_000 });

    // Second Bank sees it live: ₹5 Cr in the size column, 5,00,000 bonds on hover.
    const row = publicRuns(second).getByRole('row').filter({ hasText: GSEC }).filter({ hasText: '7.0123%' });
    await expect(row).toBeVisible();
    await expect(row.locator('[col-id="quantum"]')).toHaveText('₹5 Cr');
    // Dense like a blotter (issue 12 §2): rows of 24-28 px, and the grid fills its dock panel.
    const rowBox = await row.boundingBox();
    expect(rowBox?.height ?? 0).toBeGreaterThanOrEqual(24);
    expect(rowBox?.height ?? 99).toBeLessThanOrEqual(28);
    const gridBox = await second.getByTestId('grid-public-runs').boundingBox();
    const panelBox = await second.getByTestId('panel-public-runs').boundingBox();
    expect((panelBox?.y ?? 0) + (panelBox?.height ?? 0) - ((gridBox?.y ?? 0) + (gridBox?.height ?? 0))).toBeLessThan(60);
    await row.locator('[col-id="quantum"]').hover();
    await expect(second.getByRole('tooltip').or(second.locator('.ag-tooltip'))).toHaveText('5,00,000 bonds');
  });

  test('a size that is not a whole number of bonds is refused with the message', async ({ browser }) => {
    const demo = await openWorkspace(browser, DEMO.dealer);
    const ticket = await chooseTicketBond(demo, 'HDFC', HDFC_NCD);
    await ticket.getByRole('textbox', { name: /^Yield \(%\)/ }).fill('7.9');
    let posts = 0;
    demo.on('request', (request) => {
      if (request.url().endsWith('/api/trade/eoi/') && request.method() === 'POST') posts += 1;
    });
    await sizeBox(demo).fill('1.5L');
    await sizeBox(demo).blur();
    await expect(ticket.getByText('Must be a whole number of bonds (₹1 L each)')).toBeVisible();
    await ticket.getByRole('button', { name: 'Post bid' }).click();
    await expect(ticket.getByText('Must be a whole number of bonds (₹1 L each)')).toBeVisible();
    expect(posts).toBe(0);
    // Two bonds' worth is taken.
    await sizeBox(demo).fill('2L');
    await expect(ticket.getByTestId('face-value-preview')).toHaveText('₹2 L · 2 bonds');
  });
});
