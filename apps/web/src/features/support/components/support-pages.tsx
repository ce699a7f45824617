import { Alert, Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { LockIcon } from '../../../components/ui/icons';
import { useSupportSettings } from '../api/get-support-settings';
import { SupportModal } from './support-modal';
import { TicketList } from './ticket-list';

/** The "New request" action of My requests: the support modal. */
export function NewSupportRequestButton() {
  const [opened, modal] = useDisclosure(false);
  return (
    <>
      <Button onClick={modal.open}>New request</Button>
      <SupportModal opened={opened} onClose={modal.close} />
    </>
  );
}

/** The caller's own tickets with their status, replies and unread badges. */
export function MyRequests() {
  return (
    <TicketList
      scope="mine"
      empty={{
        title: 'No requests yet',
        description: 'Questions, issues, access requests and feedback you send to Dart Support appear here with their replies.',
      }}
    />
  );
}

/** Dart Support's queue; anyone else sees why it is not theirs (the desk refuses them too). */
export function SupportQueue() {
  const settings = useSupportSettings();
  if (settings.data && !settings.data.staff)
    return (
      <Alert color="gray" variant="light" icon={<LockIcon />} title="Dart Support only" role="status">
        The support queue is where Dart Support answers requests. Your own requests are under My requests.
      </Alert>
    );
  if (!settings.data) return null;
  return (
    <TicketList
      scope="queue"
      empty={{ title: 'Nothing waiting', description: 'Every request is answered. New ones appear here as they arrive.' }}
    />
  );
}
