import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';

/**
 * A button that saves a file (a CSV export, the evidence pack): `saving` while it is on its way, then a toast that
 * says how it went (`done` on success; `failedSummary` with the error's words otherwise).
 */
export function useFileSave(done: { summary: string; detail: string }, failedSummary: string) {
  const [saving, setSaving] = useState(false);
  async function save(work: () => Promise<unknown>): Promise<void> {
    setSaving(true);
    try {
      await work();
      showToast({ ...done, severity: 'success' });
    } catch (error) {
      showToast({ summary: failedSummary, detail: describeError(error), severity: 'error' });
    } finally {
      setSaving(false);
    }
  }
  return { saving, save };
}
