/**
 * CI's proof that the repository stands on its own (`.ci/run` runs it before the test suite): a clone of
 * HEAD with no `../shared` beside it installs without EBADENGINE warnings, `npm start` serves the Find
 * page and the Find API answers real bonds (the 7.26% GS 2033 by ISIN, G-secs in the grid) after the
 * first-start import, and a second `npm start` skips both builds and serves the same. Prints the timings
 * (the targets are the benchmark's business: bench/startup). Exits 1 on any failure.
 * Usage: node --import tsx bench/startup/check-clone.ts
 */
import { buildActions, cloneHead, GSEC_ISIN, npmCi, timeStart } from './clone-start';

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const clone = cloneHead();
let failed = false;
try {
  console.log(`clone-start check: ${clone.commit.slice(0, 12)} cloned into ${clone.repo} (nothing beside it)`);
  const ci = npmCi(clone.repo);
  console.log(`  npm ci: ${s(ci.ms)}`);
  if (ci.badEngine.length) throw new Error(`npm ci warned EBADENGINE for ${ci.badEngine.join(', ')}`);

  const first = await timeStart(clone.repo);
  await first.stop();
  if (first.progressMs === undefined || first.progressMs > first.pageMs)
    throw new Error('the first start printed no import progress line while it imported');
  console.log(
    `  first npm start: /find in ${s(first.pageMs)}, Find API (${GSEC_ISIN} by ISIN, ${first.gsecCount} G-secs in the grid) in ${s(first.apiMs)}`,
  );

  const second = await timeStart(clone.repo);
  await second.stop();
  const actions = buildActions(second.output());
  if (actions['web app'] !== 'skipped' || actions['server bundle'] !== 'skipped')
    throw new Error(`the second start rebuilt what had not changed: ${JSON.stringify(actions)}`);
  console.log(`  second npm start (builds skipped): /find in ${s(second.pageMs)}, Find API in ${s(second.apiMs)}`);
  console.log('clone-start check: ok');
} catch (error) {
  failed = true;
  console.error(`clone-start check FAILED: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  clone.remove();
}
process.exit(failed ? 1 : 0);
