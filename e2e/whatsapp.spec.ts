/**
 * Issue 16 §2, the WhatsApp link: two new dealers join Demo Capital; one switches WhatsApp alerts on in her profile,
 * the other never does. Second Bank's dealer sends Demo Capital a private run: the simulated WhatsApp endpoint
 * receives the alert for the consenting dealer and nothing for the other. She withdraws in the profile, and the next
 * run sends her nothing. The compliance officer's "WhatsApp messages" log shows the alert with its status history.
 *
 * The simulator's phone side is read through the dev calls (`GET api/dev/whatsapp/outbox/`, `POST
 * api/dev/whatsapp/settle/`: with NODE_ENV=test receipts come only when settled, and settle also runs the producer,
 * so "nothing was sent" is checked after the run was surely handled, not after a wait).
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, signIn, verifyEmailForRegistration } from './helpers';

const GSEC_2033 = 'IN0020220151';
const PASSWORD = 'Whatsapp2026';

interface Joined {
  email: string;
  name: string;
  mobile: string;
}

async function tokenOf(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<Record<string, string>> {
  const response = await request.post('/api/token/', { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
  return { authorization: `Bearer ${((await response.json()) as { access: string }).access}` };
}

/** Demo Capital's ops admin invites a dealer who joins through the API (the browser flow is registration.spec's). */
async function joinDemoCapital(
  request: APIRequestContext,
  person: Joined & { first: string; last: string; pan: string },
): Promise<Record<string, string>> {
  const ops = await tokenOf(request, DEMO.opsAdmin);
  const invited = await request.post('/api/client/invites/', {
    headers: ops,
    data: {
      email: person.email,
      roles: ['clientdealer'],
      permissions: ['client.can_trade', 'client.view_client', 'finstruments.has_security_data_access'],
    },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const { token: invite } = (await invited.json()) as { token: string };
  const verification = await verifyEmailForRegistration(request, person.email);
  const registered = await request.post('/api/client/register/', {
    data: {
      auth_mode: 'password',
      pan: person.pan,
      password: PASSWORD,
      identity: { first_name: person.first, last_name: person.last },
      corporate_identity: null,
      contact: { email: person.email, mobile: person.mobile, whatsapp_consent: false },
      verification,
      invite,
    },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  return { authorization: `Bearer ${((await registered.json()) as { access: string }).access}` };
}

async function userIdOf(request: APIRequestContext, headers: Record<string, string>): Promise<string> {
  const response = await request.get('/api/session/', { headers });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { user_info: { id: string } }).user_info.id;
}

interface SimulatedMessage {
  provider_message_id: string;
  to: string;
  body: string;
  statuses: string[];
}

async function phoneOutbox(request: APIRequestContext, mobile: string): Promise<SimulatedMessage[]> {
  const response = await request.get(`/api/dev/whatsapp/outbox/?to=${mobile}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { results: SimulatedMessage[] }).results;
}

/** The producer has queued and sent everything committed so far, and the simulated phones produced their receipts. */
async function settle(request: APIRequestContext): Promise<void> {
  const response = await request.post('/api/dev/whatsapp/settle/');
  expect(response.status(), await response.text()).toBe(200);
}

async function screenshots(page: Page, target: Locator, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await page.waitForTimeout(350); // transitions settle before the picture
    await target.screenshot({ path: `test-results/screenshots/whatsapp-${name}-${theme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('WhatsApp link', () => {
  test('a consenting dealer gets the private-run alert on WhatsApp and a non-consenting one does not; a withdrawal stops the next; the log shows the status', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(240_000);
    const stamp = String(Date.now());
    const yes = {
      email: `wa-yes-${stamp}@demo.dart`,
      first: 'Isha',
      last: 'Joshi',
      name: 'Isha Joshi',
      mobile: `9${stamp.slice(-9)}`,
      pan: `ABCPJ${stamp.slice(-4)}K`,
    };
    const no = {
      email: `wa-no-${stamp}@demo.dart`,
      first: 'Kabir',
      last: 'Sethi',
      name: 'Kabir Sethi',
      mobile: `8${stamp.slice(-9)}`,
      pan: `ABCPS${stamp.slice(-4)}L`,
    };
    await joinDemoCapital(request, yes);
    await joinDemoCapital(request, no);

    // The consenting dealer switches WhatsApp alerts on in her profile: when and from where is shown.
    await signIn(page, yes.email, PASSWORD);
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'WhatsApp alerts' });
    const alerts = section.getByRole('switch', { name: 'Send me alerts on WhatsApp' });
    await expect(alerts).not.toBeChecked();
    await expect(section.getByTestId('whatsapp-consent-status')).toHaveText('Not given');
    await alerts.check({ force: true });
    await expect(page.getByText('WhatsApp alerts on', { exact: true })).toBeVisible();
    await expect(alerts).toBeChecked();
    await expect(section.getByTestId('whatsapp-consent-status')).toHaveText(/^Given from your profile on \S+ \d{2}:\d{2}:\d{2}$/);
    await screenshots(page, section, 'consent');

    // Second Bank's dealer sends Demo Capital a private run.
    const second = await tokenOf(request, DEMO.secondDealer);
    const session = (await (await request.get('/api/session/', { headers: await tokenOf(request, DEMO.dealer) })).json()) as {
      client_id: string;
    };
    const bond = (await (await request.get(`/api/finstrument/${GSEC_2033}/`)).json()) as { id: number };
    const runs: string[] = [];
    const sendRun = async () => {
      const sent = await request.post('/api/trade/eoi/', {
        headers: second,
        data: {
          finstrument_id: bond.id,
          quote_type: 'BID',
          quantum: 500_000,
          yield_stored: 0.0799,
          validity: 30,
          counterparties: [session.client_id],
        },
      });
      expect(sent.status(), await sent.text()).toBe(201);
      runs.push(((await sent.json()) as { id: string }).id);
    };
    try {
      await sendRun();
      await settle(request);
      const received = await phoneOutbox(request, yes.mobile);
      expect(received).toHaveLength(1);
      expect(received[0]!.to).toBe(`91${yes.mobile}`);
      expect(received[0]!.body).toContain('A private run (bid)');
      expect(received[0]!.body).toContain(GSEC_2033);
      expect(received[0]!.statuses).toEqual(expect.arrayContaining(['sent', 'delivered']));
      expect(await phoneOutbox(request, no.mobile)).toHaveLength(0);

      // She withdraws: it takes effect at once, and the next run sends her nothing.
      await alerts.uncheck({ force: true });
      await expect(page.getByText('WhatsApp alerts off', { exact: true })).toBeVisible();
      await expect(alerts).not.toBeChecked();
      await expect(section.getByTestId('whatsapp-consent-status')).toHaveText(/^Withdrawn from your profile on /);
      await expect(section.getByTestId('whatsapp-consent-history')).toContainText('Given from your profile on');
      await sendRun();
      await settle(request);
      expect((await phoneOutbox(request, yes.mobile)).map((message) => message.provider_message_id)).toEqual([
        received[0]!.provider_message_id,
      ]);
      expect(await phoneOutbox(request, no.mobile)).toHaveLength(0);

      // The compliance officer's log: the one alert to her, with its status history; none to the other dealer.
      const compliance = await (await browser.newContext()).newPage();
      await signIn(compliance, DEMO.compliance);
      await compliance.goto('/whatsapp/messages');
      await expect(compliance.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'WhatsApp messages' })).toBeVisible();
      const log = compliance.getByRole('table', { name: 'WhatsApp messages' });
      const rows = log.getByTestId('whatsapp-message-row').filter({ hasText: yes.name });
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText('A private run (bid)');
      await expect(rows.first()).toContainText(`${'•'.repeat(8)}${yes.mobile.slice(-4)}`);
      await expect(rows.first().getByTestId('whatsapp-message-status')).toHaveText(/^(Delivered|Read)$/);
      const history = rows.first().getByTestId('whatsapp-status-history');
      for (const step of ['Queued', 'Accepted', 'Sent', 'Delivered']) await expect(history).toContainText(step);
      await expect(log.getByTestId('whatsapp-message-row').filter({ hasText: no.name })).toHaveCount(0);
      // The direction filter (a segmented control: its labels take the click).
      await compliance.locator('label', { hasText: /^Received$/ }).click();
      await expect(compliance.getByRole('radio', { name: 'Received' })).toBeChecked();
      await expect(log.getByTestId('whatsapp-message-row').filter({ hasText: yes.name })).toHaveCount(0);
      await compliance.locator('label', { hasText: /^All$/ }).click();
      await expect(rows).toHaveCount(1);
      await screenshots(compliance, compliance.locator('main'), 'messages');

      // A dealer has no such page: the route is compliance and ops only.
      await page.goto('/whatsapp/messages');
      await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    } finally {
      // Later specs count the private runs: these go again.
      for (const id of runs) await request.put(`/api/trade/d/eoi/${id}/close/`, { headers: second, data: {} });
    }
  });

  test('an operator links a chat to WhatsApp: the badge shows, a message reaches a consenting member there and her reply comes back marked', async ({
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    const stamp = String(Date.now());
    const member = {
      email: `wa-chat-${stamp}@demo.dart`,
      first: 'Meera',
      last: 'Kapoor',
      name: 'Meera Kapoor',
      mobile: `7${stamp.slice(-9)}`,
      pan: `ABCPK${stamp.slice(-4)}M`,
    };
    const memberAuth = await joinDemoCapital(request, member);
    expect((await request.put('/api/whatsapp/consent/', { headers: memberAuth, data: { consented: true } })).status()).toBe(200);
    expect(
      (await request.patch('/api/client/chat-terms/', { headers: memberAuth, data: { has_accepted_chat_terms: true } })).status(),
    ).toBe(200);
    const second = await tokenOf(request, DEMO.secondDealer);
    const title = `WhatsApp desk ${stamp.slice(-5)}`;
    const created = await request.post('/api/chat/channels/', {
      headers: second,
      data: {
        customType: 'group',
        name: title,
        invitedUserIds: [await userIdOf(request, memberAuth)],
        operatorUserIds: [await userIdOf(request, second)],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { url } = (await created.json()) as { url: string };
    expect((await request.post(`/api/chat/channels/${url}/accept/`, { headers: memberAuth, data: {} })).status()).toBe(200);

    // Second Bank's dealer, the chat's operator, links it from the members drawer: the header shows the badge.
    const neha = await (await browser.newContext()).newPage();
    await signIn(neha, DEMO.secondDealer);
    await neha.goto('/chat');
    await expect(neha.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');
    await neha
      .getByTestId('chat-channel')
      .filter({ has: neha.getByTestId('chat-channel-title').getByText(title, { exact: true }) })
      .click();
    await expect(neha.getByTestId('chat-conversation-title')).toHaveText(title);
    await expect(neha.getByTestId('chat-whatsapp-badge')).toHaveCount(0);
    await neha.getByTestId('chat-members-button').click();
    const members = neha.getByRole('dialog', { name: /^Members/ });
    const link = members.getByRole('switch', { name: 'Link to WhatsApp' });
    await expect(link).not.toBeChecked();
    // The drawer slides in: its switch is off-screen until the transition ends (a check then fails).
    await expect(members.getByText('Link to WhatsApp', { exact: true })).toBeInViewport({ ratio: 1 });
    await link.check({ force: true });
    await expect(neha.getByText('Chat linked to WhatsApp', { exact: true })).toBeVisible();
    await expect(link).toBeChecked();
    await neha.keyboard.press('Escape');
    await expect(members).toBeHidden();
    await expect(neha.getByTestId('chat-whatsapp-badge')).toBeVisible();

    // Her message reaches the consenting member on WhatsApp.
    const composer = neha.getByRole('textbox', { name: 'Message' });
    await composer.fill('Can you show 7.26 on the 2033?');
    await composer.press('Enter');
    await expect(composer).toHaveValue('');
    await settle(request);
    const relayed = await phoneOutbox(request, member.mobile);
    expect(relayed).toHaveLength(1);
    expect(relayed[0]!.body).toBe(`Neha Kulkarni in ${title}: Can you show 7.26 on the 2033?`);

    // The member replies on her phone: the reply is a chat message of hers, marked as sent from WhatsApp.
    const reply = await request.post('/api/dev/whatsapp/inbound/', {
      data: { from: `91${member.mobile}`, text: 'Yes, 5 crore at 7.26', context_message_id: relayed[0]!.provider_message_id },
    });
    expect(reply.status(), await reply.text()).toBe(200);
    const replied = neha.getByTestId('chat-message').filter({ hasText: 'Yes, 5 crore at 7.26' });
    await expect(replied).toBeVisible();
    await expect(replied.getByTestId('chat-message-whatsapp')).toHaveText(/via WhatsApp/);
    await expect(
      neha.getByTestId('chat-message').filter({ hasText: 'Can you show 7.26' }).getByTestId('chat-message-whatsapp'),
    ).toHaveCount(0);
    await screenshots(neha, neha.getByTestId('chat-conversation'), 'chat');
  });
});
