import { LEGACY_SUPPORT_DEFAULT_TEXT, supportToastFor, upgradeRequestTypeFor } from '@dart/contracts';
import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { hideToast, showToast } from '../../../lib/toast';
import { useCreateTicket } from '../api/create-ticket';
import { supportSettingsQueryOptions } from '../api/get-support-settings';
import { ticketErrorMessage } from '../utils/support-errors';

const UPGRADE_MESSAGE = LEGACY_SUPPORT_DEFAULT_TEXT.upgrade;

/**
 * 402 page and premium panels: raises an access ticket with Dart Support (POST ext/tickets/, the same desk as the
 * Contact support modal, so staff see it in their queue and the user in My requests) and confirms with the spec's toast.
 */
export function RequestUpgradeButton({ page }: { page: string }) {
  const queryClient = useQueryClient();
  const createTicket = useCreateTicket();
  const [requested, setRequested] = useState(false);

  async function onClick() {
    const loaderId = showToast({ group: 'loader', summary: 'Sending your upgrade request…', loading: true, life: false, closable: false });
    const requestType = upgradeRequestTypeFor(page);
    try {
      const settings = await queryClient.fetchQuery(supportSettingsQueryOptions());
      await createTicket.mutateAsync({
        ticket_type_id: settings.ticket_type_ids.access,
        contacts: [],
        ticket_attributes: { _default_description_: UPGRADE_MESSAGE, request_type: requestType, extras: { page }, attachment_ids: [] },
      });
      setRequested(true);
      showToast({
        summary: supportToastFor('access', requestType),
        severity: 'success',
        actionText: 'My requests',
        actionUrl: '/support/requests',
      });
    } catch (error) {
      showToast({ summary: ticketErrorMessage(error), severity: 'error' });
    } finally {
      hideToast(loaderId, 'loader');
    }
  }

  return (
    <Button size="md" onClick={() => void onClick()} loading={createTicket.isPending} disabled={requested}>
      {requested ? 'Upgrade requested' : 'Request Upgrade'}
    </Button>
  );
}
