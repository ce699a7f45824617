import { Button } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { hideToast, showToast } from '../../../lib/toast';
import { useCreateSupportRequest } from '../api/create-support-request';

const UPGRADE_MESSAGE = 'Please upgrade our organisation to the Premium plan.';

/** 402 page: raises an 'upgrade' support ticket and confirms with a toast. */
export function RequestUpgradeButton({ page }: { page: string }) {
  const request = useCreateSupportRequest();
  const [requested, setRequested] = useState(false);

  async function onClick() {
    const loaderId = showToast({ group: 'loader', summary: 'Sending your upgrade request…', loading: true, life: false, closable: false });
    try {
      const result = await request.mutateAsync({ kind: 'upgrade', message: UPGRADE_MESSAGE, page });
      setRequested(true);
      showToast({
        summary: 'Upgrade requested',
        detail: result.detail || 'Our team will contact you shortly to upgrade your plan.',
        severity: 'success',
      });
    } catch (error) {
      showToast({ summary: 'Could not send the request', detail: describeError(error), severity: 'error' });
    } finally {
      hideToast(loaderId, 'loader');
    }
  }

  return (
    <Button size="md" onClick={() => void onClick()} loading={request.isPending} disabled={requested}>
      {requested ? 'Upgrade requested' : 'Request Upgrade'}
    </Button>
  );
}
