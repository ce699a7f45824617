/**
 * The bond importer on slices of the real files: counts, idempotency, rejections with reasons, provenance.
 * The data is the repository's own copy (reference-data/, gzip-compressed); the crafted folder is plain CSV,
 * so both file forms the importer accepts are read.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRepoRoot, loadConfig } from '../src/config';
import { openPglite, openPostgres, type Database } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { createLogger } from '../src/lib/logger';
import { importBonds } from '../src/modules/finstruments';
import { readDataText, resolveDataFile } from '../src/modules/finstruments/importer';
import { createPostgresDatabase, DRIVERS } from './helpers';

const dataDir = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/dart-test-unused' }).bondDataDir;
const lines = (file: string) => readDataText(dataDir, file).split(/\r?\n/);
const head = (file: string, count: number) => lines(file).slice(0, count);

/** A tiny data folder of plain CSVs: real rows plus broken ones. */
function craftedDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dart-bonds-'));
  mkdirSync(path.join(dir, 'bonds'));
  mkdirSync(path.join(dir, 'trades'));
  const universe = lines('bonds/bond_universe.csv');
  const gsec = universe.filter((line) => line.startsWith('IN0020220151,'));
  const columns = universe[0]!.split(',').length;
  const blank = (isin: string, type: string) => [isin, type, ...Array<string>(columns - 2).fill('')].join(',');
  writeFileSync(
    path.join(dir, 'bonds/bond_universe.csv'),
    [...universe.slice(0, 30), ...gsec, blank('XX12345', 'Bond/NCD'), blank('INE123A07AB1', ''), universe[5]!].join('\r\n'),
  );
  writeFileSync(path.join(dir, 'bonds/issuers.csv'), head('bonds/issuers.csv', 5).join('\r\n'));
  writeFileSync(path.join(dir, 'bonds/ratings_from_mf_portfolios.csv'), head('bonds/ratings_from_mf_portfolios.csv', 40).join('\r\n'));
  const prices = lines('trades/nse_cm_debt_segment_prices_2025-12-16_to_18.csv');
  writeFileSync(
    path.join(dir, 'trades/nse_cm_debt_segment_prices_2025-12-16_to_18.csv'),
    [prices[0], ...prices.filter((l) => l.includes(',IN0020220151,')), ...prices.slice(1, 4)].join('\r\n'),
  );
  writeFileSync(
    path.join(dir, 'trades/nse_corporate_bond_trades_one_day_2025-08.csv'),
    head('trades/nse_corporate_bond_trades_one_day_2025-08.csv', 3).join('\r\n'),
  );
  writeFileSync(
    path.join(dir, 'trades/mf_portfolio_debt_valuations_2024-01_to_2025-09.csv'),
    head('trades/mf_portfolio_debt_valuations_2024-01_to_2025-09.csv', 30).join('\r\n'),
  );
  return dir;
}

describe('reference data', () => {
  it('is the repository copy, gzip-compressed, and nothing is read from outside the repository', () => {
    const root = findRepoRoot();
    expect(dataDir).toBe(path.join(root, 'reference-data'));
    for (const file of [
      'bonds/bond_universe.csv',
      'bonds/issuers.csv',
      'bonds/ratings_from_mf_portfolios.csv',
      'trades/nse_cm_debt_segment_prices_2025-12-16_to_18.csv',
      'trades/nse_corporate_bond_trades_one_day_2025-08.csv',
      'trades/mf_portfolio_debt_valuations_2024-01_to_2025-09.csv',
    ])
      expect(resolveDataFile(dataDir, file)).toBe(path.join(dataDir, `${file}.gz`));
    for (const folder of ['bonds', 'trades', 'participants'])
      expect(existsSync(path.join(dataDir, folder, 'SOURCE.md')), folder).toBe(true);
    // 31,925 ISINs and the header, as bonds/SOURCE.md states.
    expect(lines('bonds/bond_universe.csv').filter(Boolean)).toHaveLength(31_926);
    expect(() => resolveDataFile(dataDir, 'bonds/missing.csv')).toThrow(/no bonds\/missing\.csv\.gz or bonds\/missing\.csv/);
  });
});

describe.each(DRIVERS)('bond importer (%s)', (driver) => {
  let database: Database;
  let drop = async () => {};
  beforeAll(async () => {
    if (driver === 'postgres') {
      const created = await createPostgresDatabase();
      drop = created.drop;
      database = await openPostgres(created.url, createLogger('silent'), 30_000);
    } else database = await openPglite('memory://');
    await migrate(database);
  });
  afterAll(async () => {
    await database?.close();
    await drop();
  });

  it('imports a slice of the real files, then a second run changes nothing', async () => {
    const first = await importBonds(database, { dataDir, slice: true });
    expect(first.finstruments.inserted).toBeGreaterThan(300);
    expect(first.finstruments.updated).toBe(0);
    expect(first.trades.inserted).toBeGreaterThan(100);
    expect(first.referencePrices.inserted).toBeGreaterThan(100);
    expect(first.curve.points).toBeGreaterThanOrEqual(5);
    const second = await importBonds(database, { dataDir, slice: true });
    for (const table of ['issuers', 'finstruments', 'ratings', 'trades', 'referencePrices'] as const) {
      expect(second[table].inserted, table).toBe(0);
      expect(second[table].updated, table).toBe(0);
      expect(second[table].unchanged, table).toBe(first[table].inserted);
    }
    const [gsec] = await database.query<{
      display_name: string;
      coupon_rate: number;
      coupon_frequency: number;
      provenance: Record<string, string>;
      assumed: string[];
      reference_source: string;
    }>(
      "SELECT display_name, coupon_rate, coupon_frequency, provenance, assumed, reference_source FROM finstruments WHERE isin = 'IN0020220151'",
    );
    expect(gsec).toMatchObject({
      display_name: '7.26% GS 2033',
      coupon_rate: 7.26,
      coupon_frequency: 2,
      assumed: [],
      reference_source: 'NSE_CM_CLOSE',
    });
    expect(gsec!.provenance.coupon_rate).toContain('NSE');
    expect(gsec!.provenance.maturity_date).toContain('maturity_date; source: NSE');
  });

  it('rejects broken rows with reasons and keeps the good ones', async () => {
    const summary = await importBonds(database, { dataDir: craftedDataDir() });
    expect(summary.rejectedByReason, JSON.stringify(summary.rejectedByReason)).toMatchObject({ 'invalid ISIN': 1 });
    expect(summary.rejectedByReason, JSON.stringify(summary.rejectedByReason)).toMatchObject({ 'missing security type': 1 });
    expect(summary.rejectedByReason['duplicate ISIN']).toBe(1);
    expect(summary.finstruments.rejected).toBe(3);
    expect(summary.rejectedExamples).toEqual(
      expect.arrayContaining([{ file: 'bond_universe.csv', key: 'XX12345', reason: 'invalid ISIN' }]),
    );
    expect(summary.finstruments.inserted + summary.finstruments.updated + summary.finstruments.unchanged).toBe(30);
  });
});
