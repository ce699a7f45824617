#!/usr/bin/env node
// Batch calculator CLI: JSON request per line on stdin → JSON result per line on stdout.
// Node 20 cannot run TypeScript directly, so register tsx (installed at the repo root) first.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(
    'usage: bond-math < requests.jsonl > results.jsonl\n' +
      'One JSON request per line (instrument + settlementDate|tradeDate+settlementDays + yield|cleanPrice|dirtyPrice,\n' +
      'or dayCount + startDate + endDate). See packages/bond-math/README.md.\n',
  );
} else {
  await runCli(process.stdin, process.stdout);
}
