import { firstErrorMessage, type ErrorBody } from '@dart/contracts';
import { getAccessToken } from '../../../lib/access-token';
import { refreshAccessToken } from '../../../lib/api-client';
import { toAuditQuery, type AuditFilters } from '../utils/audit-filters';

const FALLBACK_NAME = 'dart-audit-trail.csv';

/** The file name the server gave in Content-Disposition (`attachment; filename="…"`). */
export function fileNameOf(disposition: string | null): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? FALLBACK_NAME;
}

/**
 * GET /api/surveillance/audit/export/ with the page's filters, saved as the server's CSV file. The access
 * token lives in memory, so a plain link would not carry it: fetch with the bearer token, then save the blob.
 */
export async function exportAuditCsv(filters: AuditFilters): Promise<void> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(toAuditQuery(filters))) if (value !== undefined) params.set(key, String(value));
  const url = `/api/surveillance/audit/export/${params.size ? `?${params.toString()}` : ''}`;
  const get = () => {
    const token = getAccessToken();
    return fetch(url, { credentials: 'include', headers: token ? { authorization: `Bearer ${token}` } : {} });
  };
  let response = await get();
  if (response.status === 401 && (await refreshAccessToken().catch(() => false))) response = await get();
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as ErrorBody | null;
    throw new Error(body?.message ? firstErrorMessage(body) : `The export failed (HTTP ${response.status}).`);
  }
  const objectUrl = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = objectUrl;
  anchor.download = fileNameOf(response.headers.get('content-disposition'));
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
}
