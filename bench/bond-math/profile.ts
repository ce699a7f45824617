/**
 * One operation of the benchmark in a loop, for a CPU profile:
 *   node --cpu-prof --cpu-prof-dir=/tmp/bond-math-profile --import tsx bench/bond-math/profile.ts price|solve|build|xirr [rounds]
 * `price`, `solve` and `build` run on the mixed set, `xirr` on the SEBI corporate set.
 */
import type { Bond, CleanPrice, Yield } from '@dart/bond-math';
import {
  createCorporateBond,
  createFixedCouponBond,
  getCleanPriceFromYield,
  getCompoundingForFrequency,
  getYieldFromPrice,
  makeYield,
} from '@dart/bond-math';
import type { BondInput } from './bond-sets';
import { generateBondSets, QUANTLIB_CONVENTIONS, SETTLEMENT_DATE } from './bond-sets';

const operation = process.argv[2] ?? 'price';
const rounds = Number(process.argv[3] ?? 20);
const COUNT = 20_000;
const sets = generateBondSets(COUNT, 20_251_127);
const buildMixed = (input: BondInput): Bond =>
  createFixedCouponBond({
    issueDate: input.issueDate,
    maturityDate: input.maturityDate,
    couponRate: input.couponRate,
    frequency: input.frequency,
    convention: QUANTLIB_CONVENTIONS.get(input.dayCount) as never,
  });
const isXirr = operation === 'xirr';
const inputs = isXirr ? sets.xirr : sets.mixed;
const build = isXirr ? (input: BondInput) => createCorporateBond({ ...input, faceValuePerUnit: 100_000 }) : buildMixed;
const yields: Yield[] = inputs.map((input) => makeYield(input.yieldRate, isXirr ? 'annual' : getCompoundingForFrequency(input.frequency)));
const bonds = operation === 'build' ? [] : inputs.map(build);
const prices: CleanPrice[] = bonds.map((bond, i) => getCleanPriceFromYield(bond, SETTLEMENT_DATE, yields[i] as Yield));

const bodies: Record<string, (i: number) => number> = {
  price: (i) => getCleanPriceFromYield(bonds[i] as Bond, SETTLEMENT_DATE, yields[i] as Yield).per100,
  solve: (i) => getYieldFromPrice(bonds[i] as Bond, SETTLEMENT_DATE, prices[i] as CleanPrice).rate,
  xirr: (i) => getYieldFromPrice(bonds[i] as Bond, SETTLEMENT_DATE, prices[i] as CleanPrice).rate,
  build: (i) => getCleanPriceFromYield(build(inputs[i] as BondInput), SETTLEMENT_DATE, yields[i] as Yield).per100,
};
const body = bodies[operation];
if (!body) throw new Error(`unknown operation ${operation}: price, solve, build or xirr`);
let sink = 0;
const start = performance.now();
const cpuStart = process.cpuUsage();
for (let round = 0; round < rounds; round++) for (let i = 0; i < COUNT; i++) sink += body(i);
const seconds = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const perSecond = (time: number) => Math.round((rounds * COUNT) / time).toLocaleString('en-US');
// On a shared machine the CPU-time figure (this process's user + system time) is steadier than wall time.
console.log(`${operation}: ${perSecond(seconds)} ops/s wall, ${perSecond(cpuSeconds)} ops per CPU second (checksum ${sink})`);
