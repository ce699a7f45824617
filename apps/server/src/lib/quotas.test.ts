import { randomUUID } from 'node:crypto';
import { quotaExceededMessage } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '../db/client';
import { migrate } from '../db/migrate';
import { AppError } from './errors';
import { createLogger } from './logger';
import { createQuotas, istDay } from './quotas';

describe('istDay', () => {
  it('is the calendar day in India, with the seconds left until its midnight', () => {
    // 18:29:59 UTC is 23:59:59 IST: one second left of 22 Nov.
    expect(istDay(new Date('2026-11-22T18:29:59Z'))).toEqual({ day: '2026-11-22', secondsLeft: 1 });
    // 18:30 UTC is midnight IST: a new day with 24 hours left.
    expect(istDay(new Date('2026-11-22T18:30:00Z'))).toEqual({ day: '2026-11-23', secondsLeft: 86_400 });
    expect(istDay(new Date('2026-12-31T20:00:00Z')).day).toBe('2027-01-01');
  });
});

const drivers: Array<'pglite' | 'postgres'> = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

describe.each(drivers)('createQuotas (%s)', (driver) => {
  let database: Database;
  let drop = async () => {};
  let clock = new Date('2026-11-23T05:00:00Z');
  const quotas = createQuotas({ 'quote.create.user': 3, 'quote.create.client': 4 }, () => clock);

  beforeAll(async () => {
    if (driver === 'postgres') {
      const { createPostgresDatabase } = await import('../../test/helpers');
      const scratch = await createPostgresDatabase();
      drop = scratch.drop;
      database = await openPostgres(scratch.url, createLogger('silent'), 5000);
    } else database = await openPglite('memory://');
    await migrate(database);
  });
  afterAll(async () => {
    await database?.close();
    await drop();
  });

  const charge = (user: string, firm: string) =>
    database.db.transaction((tx) =>
      quotas.charge(tx, [
        { action: 'quote.create', scope: 'user', subjectId: user },
        { action: 'quote.create', scope: 'client', subjectId: firm },
      ]),
    );
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as AppError,
    );

  it('counts a firm across its users, and a refusal rolls back the charges made before it', async () => {
    const firm = randomUUID();
    const [alice, bob] = [randomUUID(), randomUUID()];
    for (let i = 0; i < 3; i++) await charge(alice, firm);
    expect((await refusal(charge(alice, firm)))?.message).toBe(quotaExceededMessage('quote.create', 'user', 3));
    await charge(bob, firm);
    // Bob's own cap is far, the firm's (4) is reached: his user charge in that transaction is undone too.
    const firmFull = await refusal(charge(bob, firm));
    expect(firmFull?.status).toBe(429);
    expect(firmFull?.message).toBe(quotaExceededMessage('quote.create', 'client', 4));
    expect(await quotas.used(database.db, 'user', bob, 'quote.create')).toBe(1);
    expect(await quotas.used(database.db, 'client', firm, 'quote.create')).toBe(4);
    // `check` refuses the same without writing.
    await expect(quotas.check(database.db, [{ action: 'quote.create', scope: 'client', subjectId: firm }])).rejects.toThrow(
      quotaExceededMessage('quote.create', 'client', 4),
    );
    // The next IST day starts from zero; actions without a cap are never counted.
    clock = new Date(clock.getTime() + 24 * 3_600_000);
    await charge(bob, firm);
    await database.db.transaction((tx) => quotas.charge(tx, [{ action: 'rfq.raise', scope: 'user', subjectId: bob }]));
    expect(await quotas.used(database.db, 'user', bob, 'rfq.raise')).toBe(0);
  });

  it('concurrent charges never pass the cap', async () => {
    const firm = randomUUID();
    const user = randomUUID();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => charge(user, firm)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await quotas.used(database.db, 'user', user, 'quote.create')).toBe(3);
  });
});
