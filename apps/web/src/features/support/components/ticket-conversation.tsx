import {
  SUPPORT_MESSAGES,
  SUPPORT_REQUEST_TYPE_LABELS,
  SUPPORT_TICKET_STATUS_LABELS,
  SUPPORT_TICKET_STATUSES,
  SUPPORT_FILE_TYPES,
  type SupportAttachment,
  type SupportTicket,
  type SupportTicketStatus,
} from '@dart/contracts';
import { Alert, Anchor, Button, FileInput, Group, Paper, Select, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { AlertIcon } from '../../../components/ui/icons';
import { fetchFile, saveFile } from '../../../lib/download';
import { describeError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useChangeTicketStatus, useGrantUpgrade, useMarkTicketRead, useReplyToTicket, useTicket } from '../api/ticket';
import { uploadAttachment } from '../api/upload-attachment';
import { attachmentsError, ticketErrorMessage, uploadErrorMessage } from '../utils/support-errors';
import { TicketStatusBadge } from './ticket-status-badge';

function Attachments({ attachments }: { attachments: SupportAttachment[] }) {
  if (attachments.length === 0) return null;
  async function download(attachment: SupportAttachment) {
    if (!attachment.url) return;
    try {
      saveFile(await fetchFile(attachment.url, { fallbackName: attachment.name }));
    } catch (error) {
      showToast({ summary: 'Could not download the file', detail: describeError(error), severity: 'error' });
    }
  }
  return (
    <Group gap="xs">
      {attachments.map((attachment) => (
        <Anchor key={attachment.id} component="button" type="button" size="sm" onClick={() => void download(attachment)}>
          {attachment.name}
        </Anchor>
      ))}
    </Group>
  );
}

/** Reply box: the requester or Dart Support, with attachments through the same upload. */
function ReplyForm({ ticket }: { ticket: SupportTicket }) {
  const reply = useReplyToTicket();
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!body.trim()) {
      setError(SUPPORT_MESSAGES.replyRequired);
      return;
    }
    const fileError = attachmentsError(files);
    if (fileError) {
      setError(fileError);
      return;
    }
    setError(null);
    setSending(true);
    try {
      const attachmentIds: string[] = [];
      for (const file of files) {
        try {
          attachmentIds.push((await uploadAttachment(file)).id);
        } catch (failure) {
          setError(uploadErrorMessage(failure));
          return;
        }
      }
      await reply.mutateAsync({ id: ticket.id, body: body.trim(), attachmentIds });
      setBody('');
      setFiles([]);
      showToast({ summary: 'Reply sent', severity: 'success' });
    } catch (failure) {
      setError(ticketErrorMessage(failure));
    } finally {
      setSending(false);
    }
  }

  if (ticket.status === 'closed') {
    return (
      <Text size="sm" c="dimmed">
        {SUPPORT_MESSAGES.closed}
      </Text>
    );
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Reply">
      <Stack gap="sm">
        <Textarea
          label="Reply"
          autosize
          minRows={3}
          maxRows={10}
          value={body}
          onChange={(event) => setBody(event.currentTarget.value)}
          error={error}
        />
        <Group justify="space-between" align="flex-end">
          <FileInput
            aria-label="Attach files to the reply"
            placeholder="Attach files"
            multiple
            clearable
            size="xs"
            w={260}
            accept={SUPPORT_FILE_TYPES.join(',')}
            value={files}
            onChange={setFiles}
          />
          <Button type="submit" loading={sending}>
            Send reply
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Dart Support only: move the ticket along (the version read guards against two people changing it at once). */
function StatusForm({ ticket }: { ticket: SupportTicket }) {
  const change = useChangeTicketStatus();
  const [status, setStatus] = useState<SupportTicketStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const options = SUPPORT_TICKET_STATUSES.filter((value) => value !== ticket.status).map((value) => ({
    value,
    label: SUPPORT_TICKET_STATUS_LABELS[value],
  }));
  async function save() {
    if (!status) return;
    setError(null);
    try {
      await change.mutateAsync({ id: ticket.id, status, version: ticket.version });
      showToast({
        summary: 'Status changed',
        detail: `#${ticket.number} is ${SUPPORT_TICKET_STATUS_LABELS[status]}.`,
        severity: 'success',
      });
      setStatus(null);
    } catch (failure) {
      setError(describeError(failure));
    }
  }
  if (ticket.status === 'closed') return null;
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <Select
          label="Change status"
          placeholder="Choose a status"
          data={options}
          value={status}
          onChange={(value) => setStatus(value as SupportTicketStatus | null)}
          w={240}
          maxDropdownHeight={180}
        />
        <Button variant="light" onClick={() => void save()} disabled={!status} loading={change.isPending}>
          Save status
        </Button>
      </Group>
      <FormErrorAlert message={error} />
    </Stack>
  );
}

/**
 * Dart Support only, on an open access request of a Basic firm: "Grant Premium" moves the firm to Premium at once
 * (its users' sessions refresh) and resolves the ticket with a reply.
 */
function GrantUpgrade({ ticket }: { ticket: SupportTicket }) {
  const grant = useGrantUpgrade();
  const [error, setError] = useState<string | null>(null);
  if (ticket.ticket_type !== 'access' || ticket.status === 'closed' || ticket.requester.client_tier !== 'BASIC') return null;
  async function onGrant() {
    setError(null);
    try {
      await grant.mutateAsync({ id: ticket.id, version: ticket.version });
      showToast({ summary: 'Upgrade granted', detail: `${ticket.requester.client_name} is on the Premium plan.`, severity: 'success' });
    } catch (failure) {
      setError(describeError(failure));
    }
  }
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button onClick={() => void onGrant()} loading={grant.isPending}>
          Grant Premium to {ticket.requester.client_name}
        </Button>
        <Text size="sm" c="dimmed">
          Basic plan today. Resolves this request with a reply.
        </Text>
      </Group>
      <FormErrorAlert message={error} />
    </Stack>
  );
}

/** One ticket: what was asked, the conversation with Dart Support, and the reply box (and the status for staff). */
export function TicketConversation({ ticketId, staff = false }: { ticketId: string; staff?: boolean }) {
  const query = useTicket(ticketId);
  const markRead = useMarkTicketRead();
  const ticket = query.data;
  const unread = ticket?.unread_replies ?? 0;
  const { mutate: markAsRead } = markRead;

  // Opening the ticket shows its replies: the requester's badge clears (staff and colleagues never have unread replies).
  useEffect(() => {
    if (!staff && unread > 0) markAsRead(ticketId);
  }, [staff, unread, ticketId, markAsRead]);

  if (query.isError)
    return (
      <Alert color="red" variant="light" icon={<AlertIcon />} title="Could not load the request" role="alert">
        {describeError(query.error)}
      </Alert>
    );
  if (!ticket)
    return (
      <Stack gap="sm" aria-busy="true">
        <Skeleton height={24} />
        <Skeleton height={80} />
      </Stack>
    );
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Group gap="sm">
          <Title order={3} fz="lg">
            #{ticket.number} {ticket.title}
          </Title>
          <TicketStatusBadge status={ticket.status} />
        </Group>
        <Text size="sm" c="dimmed">
          {ticket.request_type ? SUPPORT_REQUEST_TYPE_LABELS[ticket.request_type] : 'Feedback'} · raised {formatDateTime(ticket.created_at)}
          {staff ? ` by ${ticket.requester.name} (${ticket.requester.email}), ${ticket.requester.client_name}` : ''}
        </Text>
      </Stack>
      <Paper withBorder radius="md" p="md">
        <Stack gap="xs">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {ticket.description}
          </Text>
          <Attachments attachments={ticket.attachments} />
        </Stack>
      </Paper>
      <Stack gap="sm" aria-label="Conversation" component="section">
        {ticket.messages.length === 0 ? (
          <Text size="sm" c="dimmed">
            No replies yet. Dart Support answers here and by e-mail.
          </Text>
        ) : (
          ticket.messages.map((message) => (
            <Paper
              key={message.id}
              withBorder
              radius="md"
              p="md"
              bg={message.author === 'staff' ? 'var(--mantine-primary-color-light)' : undefined}
              data-testid={`ticket-message-${message.author}`}
            >
              <Stack gap={6}>
                <Group justify="space-between" gap="xs">
                  <Text size="sm" fw={600}>
                    {message.author_name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(message.created_at)}
                  </Text>
                </Group>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {message.body}
                </Text>
                <Attachments attachments={message.attachments} />
              </Stack>
            </Paper>
          ))
        )}
      </Stack>
      {staff ? <GrantUpgrade ticket={ticket} /> : null}
      {staff ? <StatusForm ticket={ticket} /> : null}
      <ReplyForm ticket={ticket} />
    </Stack>
  );
}
