/** The finstruments module's surface: service, routes, importer and start-up preparation. */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../types';
import { registerFindCallsRoutes } from './find-calls.routes';
import { createFindCallsService } from './find-calls.service';
import { importBonds, logImportProgress, type ImportSummary } from './importer';
import { createFinstrumentsRepository } from './finstruments.repository';
import { createFinstrumentsService, type FinstrumentsService } from './finstruments.service';

export { createFinstrumentsService, type FinstrumentsService } from './finstruments.service';
export type { FinstrumentRow } from './finstruments.repository';
export { registerFinstrumentsRoutes } from './finstruments.routes';
export { importBonds, type ImportOptions, type ImportSummary } from './importer';

/**
 * Start-up: imports the bond universe when the table is empty and `BOND_IMPORT` is not `off`
 * (default `full` on the embedded database, `off` in tests and on PostgreSQL), then builds the
 * search index and keeps it in sync.
 */
export async function prepareFinstruments(deps: AppDeps, log: { info: (obj: object, msg: string) => void }): Promise<FinstrumentsService> {
  const service = createFinstrumentsService(deps);
  if (deps.config.bondImport !== 'off') {
    const empty = (await createFinstrumentsRepository(deps.database.db).count()) === 0;
    if (empty) {
      const summary: ImportSummary = await importBonds(deps.database, {
        dataDir: deps.config.bondDataDir,
        slice: deps.config.bondImport === 'slice',
        onProgress: logImportProgress(log),
      });
      log.info(
        { finstruments: summary.finstruments, trades: summary.trades, referencePrices: summary.referencePrices, ms: summary.durationMs },
        'bond universe imported',
      );
    }
  }
  await service.startIndexSync();
  return service;
}

/** Find's remaining calls (issue 17 §3): categories, the client's list, market/master quotes, info v2. */
export function registerFindCalls(app: FastifyInstance, deps: AppDeps, finstruments: FinstrumentsService): void {
  registerFindCallsRoutes(app, createFindCallsService(deps, finstruments));
}
