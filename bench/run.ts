/**
 * `npm run bench`: runs every benchmark under bench/ (each folder's index.ts exports `run()`) and
 * prints one table. `npm run bench -- api` runs only the named ones.
 */
import { readdirSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { printTable, type BenchResult } from './types';

const only = process.argv.slice(2);
const dirs = readdirSync(import.meta.dirname).filter((name) => {
  const full = path.join(import.meta.dirname, name);
  return statSync(full).isDirectory() && existsSync(path.join(full, 'index.ts')) && (only.length === 0 || only.includes(name));
});
const all: BenchResult[] = [];
for (const dir of dirs) {
  console.error(`running bench/${dir} ...`);
  const mod = (await import(`./${dir}/index.ts`)) as { run: () => Promise<BenchResult[]> };
  all.push(...(await mod.run()));
}
printTable(all);
