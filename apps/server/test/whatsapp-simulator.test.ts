/**
 * The simulated WhatsApp Business endpoint on its own (no database): the refusals the real Cloud API gives (bad
 * number, throughput, the per-user pair limit, free text outside the 24-hour window), the receipts in order, failures
 * at the configured rate, and inbound messages handed to Dart. Its clock is injected, so nothing waits.
 */
import { describe, expect, it } from 'vitest';
import { BridgeSendError, type BridgeInbound, type BridgeReceipt } from '../src/modules/whatsapp/messaging-bridge';
import { SimulatedWhatsAppBridge } from '../src/modules/whatsapp/simulated-whatsapp-bridge';

const TO = '919876500001';
const template = (to = TO) => ({ to, kind: 'template' as const, template: 'dart_alert', parameters: ['hi'], body: 'hi' });

function simulator(options: ConstructorParameters<typeof SimulatedWhatsAppBridge>[0] = {}) {
  let clock = Date.parse('2026-11-27T10:00:00Z');
  const receipts: BridgeReceipt[] = [];
  const inbound: BridgeInbound[] = [];
  const sim = new SimulatedWhatsAppBridge(
    { receiptDelayMs: 0, failureRate: 0, readRate: 1, pairIntervalMs: 0, ...options },
    () => new Date(clock),
  );
  sim.connect({ receipt: async (r) => void receipts.push(r), inbound: async (m) => void inbound.push(m) });
  return { sim, receipts, inbound, advance: (ms: number) => (clock += ms) };
}

async function refusal(promise: Promise<unknown>): Promise<BridgeSendError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeSendError);
  return error as BridgeSendError;
}

describe('SimulatedWhatsAppBridge', () => {
  it('accepts a template with a wamid id and reports sent, delivered, read in order', async () => {
    const { sim, receipts } = simulator();
    const { providerMessageId } = await sim.send(template());
    expect(providerMessageId).toMatch(/^wamid\.SIM[0-9A-F]{24}$/);
    expect(receipts).toEqual([]);
    await sim.settle();
    expect(receipts.map((r) => r.status)).toEqual(['sent', 'delivered', 'read']);
    expect(receipts.every((r) => r.providerMessageId === providerMessageId)).toBe(true);
    expect(sim.outbox(TO)[0]!.statuses).toEqual(['sent', 'delivered', 'read']);
  });

  it('fails messages at the configured rate with the provider error, and never reads those', async () => {
    const { sim, receipts } = simulator({ failureRate: 1 });
    await sim.send(template());
    await sim.settle();
    expect(receipts).toEqual([expect.objectContaining({ status: 'failed', reason: '131026 Message undeliverable' })]);
  });

  it('refuses a malformed number, and free text outside the window the user opened', async () => {
    const { sim, inbound, advance } = simulator();
    expect((await refusal(sim.send(template('12345')))).code).toBe(100);
    const text = { to: TO, kind: 'text' as const, body: 'hello' };
    const outside = await refusal(sim.send(text));
    expect([outside.code, outside.retryAfterMs]).toEqual([131047, null]);
    await sim.injectInbound({ from: `+${TO}`, text: 'hi there' });
    expect(inbound).toEqual([expect.objectContaining({ from: TO, text: 'hi there' })]);
    await expect(sim.send(text)).resolves.toHaveProperty('providerMessageId');
    advance(24 * 60 * 60 * 1000 + 1);
    expect((await refusal(sim.send(text))).code).toBe(131047);
  });

  it('limits throughput per second and messages per user pair, with the time to wait', async () => {
    const { sim, advance } = simulator({ messagesPerSecond: 2, pairIntervalMs: 6_000 });
    await sim.send(template('919000000001'));
    await sim.send(template('919000000002'));
    const busy = await refusal(sim.send(template('919000000003')));
    expect([busy.code, busy.retryAfterMs]).toEqual([130429, 1_000]);
    advance(1_000);
    const pair = await refusal(sim.send(template('919000000001')));
    expect([pair.code, pair.retryAfterMs]).toEqual([131056, 5_000]);
    advance(5_000);
    await expect(sim.send(template('919000000001'))).resolves.toHaveProperty('providerMessageId');
  });
});
