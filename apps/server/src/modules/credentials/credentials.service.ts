/**
 * Exchange credentials (README): set a firm's NSCCL / ICCL login (sealed, audited, linked to the firm's session
 * fields in one transaction), show their status, and open them for the venue. No Fastify types here.
 */
import {
  CREDENTIAL_CORP_LABELS,
  CREDENTIAL_MESSAGES,
  credentialStatusText,
  type CredentialCorp,
  type ExchangeCredentialStatus,
  type ExchangeCredentialsSetSchema,
} from '@dart/contracts';
import type { z } from 'zod';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { Tx } from '../../db/client';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import { openSecret, recordContext, sealSecret } from './credentials.crypto';
import { createCredentialsRepository, type CredentialRow } from './credentials.repository';

const CORPS: CredentialCorp[] = ['NSCCL', 'ICCL'];

/** What the API shows of a record: never the username, never the password. */
export function credentialStatus(corp: CredentialCorp, row: CredentialRow | undefined): ExchangeCredentialStatus {
  return {
    corp,
    exchange: CREDENTIAL_CORP_LABELS[corp].exchange,
    clearing_name: CREDENTIAL_CORP_LABELS[corp].name,
    is_set: row !== undefined,
    participant_code: row?.participantCode ?? null,
    participant_name: row?.participantName ?? null,
    set_at: row?.setAt.toISOString() ?? null,
    set_by: row?.setByName ?? null,
    status: credentialStatusText(row?.setAt ?? null, row?.setByName ?? null),
  };
}

export interface SetCredentialsInput {
  clientId: string;
  corp: CredentialCorp;
  participantCode: string;
  participantName?: string | null | undefined;
  username: string;
  password: string;
  setByUserId: string | null;
  setByName: string;
}

/**
 * Seals and stores one firm's credentials for a corp (replacing any), links the firm's session fields to them
 * and writes the audit row, all in the caller's transaction. The audit row names what changed, never the
 * username or the password.
 */
export async function storeCredentials(
  tx: Tx,
  kek: Buffer,
  at: Date,
  input: SetCredentialsInput,
  audit: AuditContext,
): Promise<CredentialRow> {
  const repo = createCredentialsRepository(tx);
  const before = await repo.lockOne(input.clientId, input.corp);
  const participantName = input.participantName?.trim() || (await repo.clientName(input.clientId)) || input.participantCode;
  const sealed = sealSecret(kek, input.password, recordContext(input.clientId, input.corp));
  const row = await repo.upsert({
    clientId: input.clientId,
    corp: input.corp,
    participantCode: input.participantCode,
    participantName,
    username: input.username,
    ...sealed,
    setByUserId: input.setByUserId,
    setByName: input.setByName,
    setAt: at,
  });
  await repo.linkToClient(input.clientId, input.corp, row.id, participantName);
  await writeAudit(tx, audit, {
    action: 'client.exchange_credentials_set',
    entity: 'exchange_credentials',
    entityId: row.id,
    before: before
      ? {
          corp: before.corp,
          participant_code: before.participantCode,
          participant_name: before.participantName,
          set_at: before.setAt.toISOString(),
          set_by: before.setByName,
        }
      : null,
    after: {
      corp: row.corp,
      participant_code: row.participantCode,
      participant_name: row.participantName,
      username_changed: before ? before.username !== input.username : true,
      password_changed: true,
      key_id: row.keyId,
    },
  });
  return row;
}

export function createCredentialsService(deps: AppDeps) {
  const db = deps.database.db;
  const kek = deps.config.credentialsKey;

  return {
    /** The caller's firm's status for both clearing corporations. */
    async statuses(p: Principal): Promise<ExchangeCredentialStatus[]> {
      const rows = await createCredentialsRepository(db).forClient(p.clientId);
      return CORPS.map((corp) =>
        credentialStatus(
          corp,
          rows.find((row) => row.corp === corp),
        ),
      );
    },

    /** `POST api/client/credentials/`: the caller's firm only (the route admits its ops admins). */
    async set(p: Principal, input: z.output<typeof ExchangeCredentialsSetSchema>, audit: AuditContext): Promise<ExchangeCredentialStatus> {
      const setByName = (await createCredentialsRepository(db).userName(p.userId)) ?? p.email;
      const row = await db.transaction((tx) =>
        storeCredentials(
          tx,
          kek,
          deps.now(),
          {
            clientId: p.clientId,
            corp: input.corp,
            participantCode: input.participant_code,
            participantName: input.participant_name,
            username: input.username,
            password: input.password,
            setByUserId: p.userId,
            setByName,
          },
          audit,
        ),
      );
      return credentialStatus(input.corp, row);
    },

    /** Whether the firm may act on the corp's exchange (market: raising an RFQ). */
    hasCredentials: (clientId: string, corp: CredentialCorp) => createCredentialsRepository(db).hasCredentials(clientId, corp),

    /**
     * The clear login, for the venue gateway only (never an HTTP answer, never a log line). A record sealed
     * under another key (CREDENTIALS_KEY changed) is a 409 asking the ops admin to set it again.
     */
    async openForVenue(
      clientId: string,
      corp: CredentialCorp,
    ): Promise<{ participantCode: string; username: string; password: string } | null> {
      const row = (await createCredentialsRepository(db).forClient(clientId)).find((r) => r.corp === corp);
      if (!row) return null;
      try {
        return {
          participantCode: row.participantCode,
          username: row.username,
          password: openSecret(kek, row, recordContext(clientId, corp)),
        };
      } catch {
        throw new AppError('CONFLICT', CREDENTIAL_MESSAGES.keyChanged);
      }
    },
  };
}
export type CredentialsService = ReturnType<typeof createCredentialsService>;
