/**
 * The participant lists behind `GET api/search-nsscl-participants/` and `GET api/search-iccl-participants/`:
 * the clearing banks each clearing corporation publishes (reference-data/participants/, sources in its
 * SOURCE.md), read once from BOND_DATA_DIR/participants/. Neither list publishes member codes, so their
 * `participant_code` is null; `ucc_only` keeps only entries with a code.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CredentialCorp, Participant } from '@dart/contracts';
import Papa from 'papaparse';

const LISTS: Record<CredentialCorp, { file: string; source: string }> = {
  NSCCL: { file: 'nse_clearing_banks.csv', source: 'NSE Clearing empanelled clearing banks (nseindia.com)' },
  ICCL: { file: 'iccl_clearing_banks.csv', source: 'ICCL empanelled clearing banks (icclindia.com)' },
};
const MAX_RESULTS = 50;

export interface ParticipantDirectory {
  search(corp: CredentialCorp, searchParam: string, uccOnly: boolean): Participant[];
}

export function createParticipantDirectory(dataDir: string): ParticipantDirectory {
  const cache = new Map<CredentialCorp, Participant[]>();
  function list(corp: CredentialCorp): Participant[] {
    const hit = cache.get(corp);
    if (hit) return hit;
    const { file, source } = LISTS[corp];
    const text = readFileSync(path.join(dataDir, 'participants', file), 'utf8');
    const rows = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
    const participants = rows
      .map((row) => ({ name: (row.bank_name ?? '').trim(), participant_code: row.participant_code?.trim() || null, source }))
      .filter((row) => row.name.length > 0)
      .sort((a, b) => a.name.localeCompare(b.name, 'en'));
    cache.set(corp, participants);
    return participants;
  }
  return {
    search(corp, searchParam, uccOnly) {
      const needle = searchParam.trim().toLowerCase();
      return list(corp)
        .filter(
          (p) =>
            (!uccOnly || p.participant_code !== null) &&
            (!needle || `${p.name} ${p.participant_code ?? ''}`.toLowerCase().includes(needle)),
        )
        .slice(0, MAX_RESULTS);
    },
  };
}
