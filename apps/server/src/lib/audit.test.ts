import { describe, expect, it } from 'vitest';
import { auditContentHash, auditRowHash, auditSealHash, firstBrokenAuditTrail } from './audit';

type Row = Parameters<typeof firstBrokenAuditTrail>[0][number];
type Seal = Parameters<typeof firstBrokenAuditTrail>[1][number];
const GENESIS = '0'.repeat(64);

function content(id: number) {
  return {
    at: new Date(Date.UTC(2026, 10, 27, 10, 0, id)).toISOString(),
    actorUserId: null,
    actorClientId: null,
    actorEmail: `user${id}@demo.dart`,
    actorRoles: ['clientdealer'],
    action: 'auth.login',
    entity: 'user',
    entityId: String(id),
    before: null,
    after: { n: id },
    ip: '127.0.0.1',
    userAgent: 'unit',
    requestId: null,
  };
}
const stored = (id: number, c: ReturnType<typeof content>, prevHash: string | null, hash: string, xid: number | null): Row => ({
  ...c,
  at: new Date(c.at),
  id,
  prevHash,
  hash,
  xid,
});

/** Two rows of the former per-row chain (before migration 0022), then three sealed rows and one not yet sealed. */
function trail(): { rows: Row[]; seals: Seal[] } {
  const rows: Row[] = [];
  let prev = GENESIS;
  for (const id of [1, 2]) {
    const hash = auditRowHash(prev, content(id));
    rows.push(stored(id, content(id), prev, hash, null));
    prev = hash;
  }
  for (const [id, xid] of [
    [3, 700],
    [4, 702],
    [5, 705],
    [6, 720],
  ] as const)
    rows.push(stored(id, content(id), null, auditContentHash(content(id)), xid));
  const first = rows.filter((r) => r.xid !== null && r.xid < 703);
  const second = rows.filter((r) => r.xid! >= 703 && r.xid! < 710);
  const seal1: Seal = {
    id: 1,
    sealedAt: new Date(),
    fromXid: 0,
    toXid: 703,
    rowCount: 2,
    firstId: 3,
    lastId: 4,
    prevHash: prev,
    hash: auditSealHash(prev, first),
  };
  const seal2: Seal = {
    id: 2,
    sealedAt: new Date(),
    fromXid: 703,
    toXid: 710,
    rowCount: 1,
    firstId: 5,
    lastId: 5,
    prevHash: seal1.hash,
    hash: auditSealHash(seal1.hash, second),
  };
  return { rows, seals: [seal1, seal2] };
}

describe('audit trail verification', () => {
  it('accepts the former chain followed by seals, and a row after the last seal', () => {
    const { rows, seals } = trail();
    expect(firstBrokenAuditTrail(rows, seals)).toBeNull();
  });

  it('names a changed row of the former chain and a changed sealed row', () => {
    const { rows, seals } = trail();
    expect(
      firstBrokenAuditTrail(
        rows.map((r) => (r.id === 2 ? { ...r, action: 'auth.logout' } : r)),
        seals,
      ),
    ).toBe(2);
    expect(
      firstBrokenAuditTrail(
        rows.map((r) => (r.id === 4 ? { ...r, entityId: '99' } : r)),
        seals,
      ),
    ).toBe(4);
  });

  it('names the seal of a deleted or moved row, and a seal that does not follow the one before', () => {
    const { rows, seals } = trail();
    expect(
      firstBrokenAuditTrail(
        rows.filter((r) => r.id !== 4),
        seals,
      ),
    ).toBe(3);
    expect(
      firstBrokenAuditTrail(
        rows.map((r) => (r.id === 5 ? { ...r, xid: 701 } : r)),
        seals,
      ),
    ).toBe(3);
    expect(firstBrokenAuditTrail(rows, [seals[0]!, { ...seals[1]!, prevHash: GENESIS }])).toBe(5);
    expect(firstBrokenAuditTrail(rows, [seals[1]!])).toBe(5);
  });
});
