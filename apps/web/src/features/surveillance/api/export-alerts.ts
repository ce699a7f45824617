import { fetchFile, saveFile, type DownloadedFile } from '../../../lib/download';
import { alertSearchParams, type AlertFilters } from '../utils/alert-filters';

/** GET /api/surveillance/alerts/?format=csv with the list's filters, saved as the server's CSV file. */
export async function exportAlertsCsv(filters: AlertFilters): Promise<void> {
  const params = alertSearchParams(filters, { format: 'csv' });
  saveFile(await fetchFile(`/api/surveillance/alerts/?${params.toString()}`, { accept: 'text/csv', fallbackName: 'dart-alerts.csv' }));
}

/** GET /api/surveillance/alerts/{id}/evidence.pdf: the alert's evidence pack, saved as a PDF. */
export async function downloadEvidencePack(alertId: string): Promise<DownloadedFile> {
  const file = await fetchFile(`/api/surveillance/alerts/${encodeURIComponent(alertId)}/evidence.pdf`, {
    accept: 'application/pdf',
    fallbackName: 'dart-evidence-pack.pdf',
  });
  saveFile(file);
  return file;
}
