/**
 * The exchange-credentials module's surface (issue 14; README): the calls, and `hasCredentials` for the
 * market's RFQ raise. `storeCredentials` lets the demo seed give its firms credentials.
 */
import type { CredentialCorp } from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client';
import { createCredentialsRepository } from './credentials.repository';
import { registerCredentialsRoutes } from './credentials.routes';
import { createCredentialsService, type CredentialsService } from './credentials.service';
import { createParticipantDirectory } from './participants';

export { credentialsHeldSql } from './credentials.repository';
export type { CredentialsService } from './credentials.service';
export { createCredentialsService, storeCredentials } from './credentials.service';

/** Whether the firm holds credentials at the clearing corporation (NSCCL for NSE, ICCL for BSE). */
export const hasExchangeCredentials = (db: DbOrTx, clientId: string, corp: CredentialCorp): Promise<boolean> =>
  createCredentialsRepository(db).hasCredentials(clientId, corp);

export function registerCredentials(app: FastifyInstance): CredentialsService {
  const credentials = createCredentialsService(app.deps);
  registerCredentialsRoutes(app, credentials, createParticipantDirectory(app.deps.config.bondDataDir));
  return credentials;
}
