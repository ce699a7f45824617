/**
 * Issue 16 §1 "Done means": Demo Capital's dealer writes "assured return … pakka" to Second Bank's dealer naming a
 * bond, then the two firms deal that bond through the market API at a yield far from its reference. The scanner
 * (SURVEILLANCE_SCAN=on in playwright.config.ts) raises a chat-lexicon alert and an off-market deal alert for Demo
 * Capital, linked by the pair of firms. Demo Capital's compliance officer sees both on /surveillance, opens the deal's,
 * follows the link to the chat's, and triages it: a wrong assignee is refused on its field, then assign, comment,
 * escalate, a close without a reason refused, a close with one; the evidence pack downloads as a PDF (rendered to PNG
 * for a look), the list is captured in light and dark, and the audit trail's hash chain shows intact.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiSession, DEMO, expectJson, signIn, type ApiSession } from './helpers';

/** An HDFC Bank NCD of the e2e bond slice with a reference yield (no other spec trades it). */
const ISIN = 'INE040A08492';
const OUT = 'test-results/surveillance';
/** The server's words (packages/contracts/src/surveillance.ts SURVEILLANCE_MESSAGES). */
const SURVEILLANCE_MESSAGES = {
  assignee: 'Choose a compliance officer of your firm.',
  comment: 'Write a comment.',
  reason: 'Give the reason for closing the alert.',
  closed: 'This alert is closed.',
};

interface AlertRow {
  id: string;
  kind: string;
  title: string;
}

/** Waits until the scanner has raised a Demo Capital alert of `kind` whose title contains `title`. */
async function waitForAlert(request: APIRequestContext, compliance: ApiSession, kind: string, title: string): Promise<AlertRow> {
  let found: AlertRow | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/surveillance/alerts/?kind=${kind}&page_size=100`, { headers: compliance.auth });
        const list = (await response.json()) as { results: AlertRow[] };
        found = list.results.find((alert) => alert.title.includes(title));
        return Boolean(found);
      },
      { message: `a ${kind} alert "${title}"`, timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

const alertRow = (page: Page, title: string) => page.getByTestId('alert-row').filter({ hasText: title });

test('a lexicon hit and a later off-market deal between the same firms raise linked alerts the compliance officer triages and exports', async ({
  page,
  request,
  consoleGuard,
}) => {
  test.setTimeout(180_000);
  mkdirSync(OUT, { recursive: true });
  const arjun = await apiSession(request, DEMO.dealer);
  const neha = await apiSession(request, DEMO.secondDealer);
  const compliance = await apiSession(request, DEMO.compliance);

  // The bond and its reference yield.
  const bond = await expectJson<{ id: number; display_name: string; reference: { bond_yield: number } | null }>(
    await request.get(`/api/finstrument/${ISIN}/`, { headers: arjun.auth }),
    200,
  );
  const reference = bond.reference?.bond_yield;
  expect(typeof reference, `${ISIN} has a reference yield`).toBe('number');

  // 1. A chat between the two firms: Arjun (Demo Capital) writes an assured return on the bond to Neha (Second Bank).
  const channel = await expectJson<{ url: string }>(
    await request.post('/api/chat/channels/', {
      headers: arjun.auth,
      data: { customType: 'group', name: `Desk ${Date.now()}`, invitedUserIds: [neha.userId] },
    }),
    201,
  );
  const channelPath = `/api/chat/channels/${encodeURIComponent(channel.url)}`;
  await expectJson(await request.post(`${channelPath}/accept/`, { headers: neha.auth }), 200);
  await expectJson(
    await request.post(`${channelPath}/messages/`, {
      headers: arjun.auth,
      data: { reqId: `surveillance-${Date.now()}`, message: `Assured return on ${ISIN}, pakka. Take it today, I will square you later.` },
    }),
    201,
  );

  // 2. A later deal between the same firms on that bond, 5 percentage points above the reference yield.
  const farYield = Number((reference! + 0.05).toFixed(4));
  const bid = await expectJson<{ id: string }>(
    await request.post('/api/trade/eoi/', {
      headers: arjun.auth,
      data: { quote_type: 'BID', quantum: 500_000, finstrument_id: bond.id, yield_stored: farYield, validity: 60 },
    }),
    201,
  );
  const counter = await expectJson<{ id: string }>(
    await request.post('/api/eoi/add-negotiation/', {
      headers: neha.auth,
      data: { quote_id: bid.id, yield_stored: Number((farYield - 0.0005).toFixed(4)) },
    }),
    200,
  );
  await expectJson(
    await request.post('/api/eoi/add-negotiation/', {
      headers: arjun.auth,
      data: { quote_id: bid.id, negotiation_id: counter.id, action: 'accept' },
    }),
    200,
  );

  // 3. The scanner raises both for Demo Capital.
  const lexicon = await waitForAlert(request, compliance, 'chat_lexicon', '"assured return"');
  const deal = await waitForAlert(request, compliance, 'off_market', `Off-market deal in ${bond.display_name}`);
  const detail = await expectJson<{ linked_alert_ids: string[] }>(
    await request.get(`/api/surveillance/alerts/${deal.id}/`, { headers: compliance.auth }),
    200,
  );
  expect(detail.linked_alert_ids).toContain(lexicon.id);

  // 4. The compliance officer sees both on /surveillance.
  await signIn(page, DEMO.compliance);
  await expect(page).toHaveURL(/\/surveillance$/);
  const list = page.getByRole('table', { name: 'Surveillance alerts' });
  await expect(list).toBeVisible();
  await expect(alertRow(page, lexicon.title)).toBeVisible();
  await expect(alertRow(page, deal.title)).toBeVisible();
  await expect(alertRow(page, deal.title)).toContainText('Off-market price');
  await expect(alertRow(page, deal.title)).toContainText('Open');

  // Light and dark pictures of the list.
  mkdirSync('test-results/screenshots', { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.waitForTimeout(300);
    await page.getByRole('region', { name: 'Alerts' }).screenshot({ path: `test-results/screenshots/surveillance-alerts-${theme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The kind filter keeps only that kind.
  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Chat lexicon' }).click();
  await expect(alertRow(page, deal.title)).toHaveCount(0);
  await expect(alertRow(page, lexicon.title)).toBeVisible();
  await page.getByRole('button', { name: 'Clear alert filters' }).click();
  await expect(alertRow(page, deal.title)).toBeVisible();

  // 5. The deal's alert: its summary, facts and evidence, and the link to the chat's alert.
  await alertRow(page, deal.title).getByRole('button', { name: deal.title }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByTestId('alert-detail')).toHaveAttribute('data-alert', deal.id);
  await expect(drawer.getByTestId('alert-facts')).toContainText('Reference yield');
  await expect(drawer.getByTestId('alert-facts')).toContainText(ISIN);
  await expect(drawer.locator('[data-testid="evidence-group"][data-type="deal"]')).toContainText('Demo Capital');
  const link = drawer.getByTestId('linked-alert').filter({ hasText: lexicon.title });
  await expect(link).toBeVisible();
  await link.click();
  await expect(drawer.getByTestId('alert-detail')).toHaveAttribute('data-alert', lexicon.id);
  await expect(drawer.locator('[data-testid="evidence-group"][data-type="chat_message"]')).toContainText(
    `Assured return on ${ISIN}, pakka`,
  );
  await expect(drawer.getByTestId('alert-facts')).toContainText('assured return');
  // And back: the chat's alert links the deal's.
  await expect(drawer.getByTestId('linked-alert').filter({ hasText: deal.title })).toBeVisible();

  // 6. Triage. A dealer is no compliance officer: the server refuses the assignee on its field.
  consoleGuard.allow(/status of 400 .*\/api\/surveillance\/alerts\/[^/]+\/assign\//);
  const assignee = drawer.getByRole('combobox', { name: 'Assignee' });
  await assignee.click();
  await assignee.fill('Arjun');
  await page.getByRole('option', { name: 'Arjun Mehta' }).click();
  await drawer.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(drawer.getByText(SURVEILLANCE_MESSAGES.assignee)).toBeVisible();
  await expect(drawer.getByTestId('alert-status')).toHaveText('Open');

  // Assign to the officer (by keyboard: the options are searchable).
  await assignee.click();
  await assignee.fill('Vikram');
  await page.getByRole('option', { name: 'Vikram Iyer' }).click();
  await drawer.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(drawer.getByTestId('alert-status')).toHaveText('Assigned');
  await expect(drawer.getByTestId('alert-assignee')).toHaveText('Assigned to Vikram Iyer');

  // Comment: an empty one is refused on its field; then one with words, kept in the history.
  await drawer.getByRole('button', { name: 'Add comment' }).click();
  await expect(drawer.getByText(SURVEILLANCE_MESSAGES.comment)).toBeVisible();
  await drawer.getByRole('textbox', { name: 'Comment' }).fill('Called the desk: no such assurance was authorised.');
  await drawer.getByRole('button', { name: 'Add comment' }).click();
  const history = drawer.getByTestId('alert-history');
  await expect(history).toContainText('Vikram Iyer commented');
  await expect(history).toContainText('Called the desk: no such assurance was authorised.');

  await drawer.getByRole('textbox', { name: 'Escalation note (optional)' }).fill('To the head of compliance with the deal alert.');
  await drawer.getByRole('button', { name: 'Escalate' }).click();
  await expect(drawer.getByTestId('alert-status')).toHaveText('Escalated');
  await expect(history).toContainText('Vikram Iyer escalated it (Assigned → Escalated)');

  // Close: the reason is required.
  await drawer.getByRole('button', { name: 'Close alert' }).click();
  await expect(drawer.getByText(SURVEILLANCE_MESSAGES.reason)).toBeVisible();
  await drawer.getByRole('textbox', { name: 'Reason for closing' }).fill('Dealer warned in writing; the deal was reversed at market.');
  await drawer.getByRole('button', { name: 'Close alert' }).click();
  await expect(drawer.getByTestId('alert-status')).toHaveText('Closed');
  await expect(drawer.getByTestId('alert-closed')).toHaveText(SURVEILLANCE_MESSAGES.closed);
  await expect(history).toContainText('Vikram Iyer closed it (Escalated → Closed)');
  await expect(history).toContainText('Dealer warned in writing');

  // 7. The evidence pack: a PDF.
  const downloading = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Download evidence pack (PDF)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const pdfPath = path.join(OUT, 'evidence-pack.pdf');
  await download.saveAs(pdfPath);
  const pdf = readFileSync(pdfPath);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  if (existsSync('/usr/bin/pdftoppm'))
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', pdfPath, path.join(OUT, 'evidence-pack')]);

  // The list shows the alert closed and assigned once the drawer is shut.
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(alertRow(page, lexicon.title)).toContainText('Closed');
  await expect(alertRow(page, lexicon.title)).toContainText('Vikram Iyer');

  // The audit trail below: the hash chain checked on the server, intact, and checkable again.
  const integrity = page.getByTestId('audit-integrity');
  await expect(integrity).toHaveAttribute('data-intact', 'true');
  await expect(integrity).toContainText('Hash chain intact');
  await integrity.getByRole('button', { name: 'Check again' }).click();
  await expect(integrity).toHaveAttribute('data-intact', 'true');
  // The triage steps are in the trail in words.
  const trail = page.getByRole('table', { name: 'Audit trail' });
  await expect(trail.getByRole('row').filter({ hasText: 'Surveillance alert closed' }).first()).toContainText('Vikram Iyer');
  await expect(trail.getByRole('row').filter({ hasText: 'Evidence pack downloaded' }).first()).toBeVisible();
});
