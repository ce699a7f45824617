import { Button, Group, Modal, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';
import { useCreateSupportRequest, type SupportKind } from '../api/create-support-request';

interface SupportModalProps {
  opened: boolean;
  onClose: () => void;
  initialKind?: Extract<SupportKind, 'support' | 'report_issue'>;
}

/** The support and report-issue modals of spec §2: a message to Dart's support desk. */
export function SupportModal({ opened, onClose, initialKind = 'support' }: SupportModalProps) {
  const [kind, setKind] = useState<SupportKind>(initialKind);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const request = useCreateSupportRequest();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!message.trim()) {
      setError('Message is required.');
      return;
    }
    setError(null);
    try {
      await request.mutateAsync({ kind, message: message.trim(), page: window.location.pathname });
      showToast({ summary: 'Request sent', detail: 'Our support team will get back to you.', severity: 'success' });
      setMessage('');
      onClose();
    } catch (failure) {
      setError(describeError(failure));
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Contact support" centered size="lg">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <SegmentedControl
            value={kind}
            onChange={(value) => setKind(value as SupportKind)}
            data={[
              { value: 'support', label: 'Ask for help' },
              { value: 'report_issue', label: 'Report an issue' },
            ]}
            aria-label="Request type"
          />
          <Textarea
            label={kind === 'report_issue' ? 'What went wrong?' : 'How can we help?'}
            required
            autosize
            minRows={4}
            value={message}
            onChange={(event) => setMessage(event.currentTarget.value)}
            error={error}
            data-autofocus
          />
          <Text size="xs" c="dimmed">
            We attach the page you are on so the team can see the context.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={request.isPending}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
