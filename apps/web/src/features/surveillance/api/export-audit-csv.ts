import { fetchFile, saveFile } from '../../../lib/download';
import { toAuditQuery, type AuditFilters } from '../utils/audit-filters';

/** GET /api/surveillance/audit/export/ with the page's filters, saved as the server's CSV file. */
export async function exportAuditCsv(filters: AuditFilters): Promise<void> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(toAuditQuery(filters))) if (value !== undefined) params.set(key, String(value));
  const url = `/api/surveillance/audit/export/${params.size ? `?${params.toString()}` : ''}`;
  saveFile(await fetchFile(url, { accept: 'text/csv', fallbackName: 'dart-audit-trail.csv' }));
}
