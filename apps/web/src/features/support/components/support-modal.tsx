import {
  SUPPORT_FILE_TYPES,
  SUPPORT_LIMITS,
  SUPPORT_REQUEST_TYPE_LABELS,
  SUPPORT_REQUEST_TYPE_TICKET_TYPES,
  SUPPORT_REQUEST_TYPES,
  SUPPORT_MESSAGES,
  supportToastFor,
  type SupportRequestType,
  type SupportTicketType,
} from '@dart/contracts';
import { Button, Checkbox, FileInput, Group, Modal, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { showToast } from '../../../lib/toast';
import { useCreateTicket } from '../api/create-ticket';
import { supportSettingsQueryOptions } from '../api/get-support-settings';
import { uploadAttachment } from '../api/upload-attachment';
import { attachmentsError, ticketErrorMessage, uploadErrorMessage } from '../utils/support-errors';

/** The support modals of spec §2: contact, support and report issue (and feedback, the fourth ticket type). */
export type SupportModalKind = 'support' | 'report_issue' | 'feedback' | 'contact';

/** Spec trading-domain §2 "Report issue modal", word for word. */
const REPORT_ISSUE_OPTIONS = [
  'Price/yield seems incorrect',
  'Maturity date seems incorrect',
  'Call/put information seems incorrect',
  'Others',
] as const;
const REPORT_ISSUE_CONSENT = 'Share pricing details entered by you with our support team. This helps to resolve issues quicker.';

/** What "Ask for help" offers: every request type but the two that have their own modal. */
const HELP_REQUEST_TYPES = SUPPORT_REQUEST_TYPES.filter((type) => type !== 'report_issue' && type !== 'contact_form').map((type) => ({
  value: type,
  label: SUPPORT_REQUEST_TYPE_LABELS[type],
}));

const TITLES: Record<SupportModalKind, string> = {
  support: 'Contact support',
  report_issue: 'Report an issue',
  feedback: 'Send feedback',
  contact: 'Contact us',
};
const TEXT_LABELS: Record<SupportModalKind, string> = {
  support: 'How can we help?',
  report_issue: 'What went wrong?',
  feedback: 'Your feedback',
  contact: 'Message',
};

interface SupportModalProps {
  opened: boolean;
  onClose: () => void;
  initialKind?: SupportModalKind;
  /** A request type to preselect in "Ask for help" (e.g. 'inventory_access' from a locked page). */
  initialRequestType?: SupportRequestType;
  /** Context for the desk (the bond, the screen); pricing details go only with the reporter's consent. */
  extras?: Record<string, string | number | boolean | null>;
  pricingDetails?: Record<string, string | number | null>;
}

/**
 * Raises a ticket with Dart Support (POST ext/tickets/ with the ticket type id in force), attachments first
 * through POST ext/public/upload/. Toasts and errors are the spec's (§8), word for word from the contracts.
 */
export function SupportModal({ opened, onClose, initialKind = 'support', initialRequestType, extras, pricingDetails }: SupportModalProps) {
  const [kind, setKind] = useState<SupportModalKind>(initialKind);
  const [requestType, setRequestType] = useState<SupportRequestType | null>(initialRequestType ?? null);
  const [issues, setIssues] = useState<string[]>([]);
  const [consent, setConsent] = useState(true);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<{ text?: string; requestType?: string; files?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const queryClient = useQueryClient();
  const createTicket = useCreateTicket();

  function reset() {
    setKind(initialKind);
    setText('');
    setFiles([]);
    setIssues([]);
    setErrors({});
    setFormError(null);
  }

  /** The ticket type and request type this form raises. */
  function typeOf(): { type: SupportTicketType; request: SupportRequestType | null } | null {
    if (kind === 'feedback') return { type: 'feedback', request: null };
    if (kind === 'contact') return { type: SUPPORT_REQUEST_TYPE_TICKET_TYPES.contact_form, request: 'contact_form' };
    if (kind === 'report_issue') return { type: SUPPORT_REQUEST_TYPE_TICKET_TYPES.report_issue, request: 'report_issue' };
    return requestType ? { type: SUPPORT_REQUEST_TYPE_TICKET_TYPES[requestType], request: requestType } : null;
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const trimmed = text.trim();
    const chosen = typeOf();
    const found = {
      ...(trimmed ? {} : { text: SUPPORT_MESSAGES.textRequired }),
      ...(trimmed.length > SUPPORT_LIMITS.textMaxChars ? { text: SUPPORT_MESSAGES.textTooLong } : {}),
      ...(chosen ? {} : { requestType: SUPPORT_MESSAGES.requestTypeRequired }),
      ...(attachmentsError(files) ? { files: attachmentsError(files)! } : {}),
    };
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0 || !chosen) return;
    setSending(true);
    try {
      const settings = await queryClient.fetchQuery(supportSettingsQueryOptions());
      const attachmentIds: string[] = [];
      for (const file of files) {
        try {
          attachmentIds.push((await uploadAttachment(file)).id);
        } catch (error) {
          const message = uploadErrorMessage(error);
          setErrors({ files: message });
          showToast({ summary: message, severity: 'error' });
          return;
        }
      }
      const reportExtras =
        kind === 'report_issue' ? { issues, share_pricing_details: consent, ...(consent && pricingDetails ? pricingDetails : {}) } : {};
      await createTicket.mutateAsync({
        ticket_type_id: settings.ticket_type_ids[chosen.type],
        contacts: [],
        // No title: the desk names the ticket by its request type and the start of the text.
        ticket_attributes: {
          _default_description_: trimmed,
          request_type: chosen.request,
          extras: { page: window.location.pathname, ...extras, ...reportExtras },
          attachment_ids: attachmentIds,
        },
      });
      showToast({
        summary: supportToastFor(chosen.type, chosen.request),
        severity: 'success',
        actionText: 'My requests',
        actionUrl: '/support/requests',
      });
      reset();
      onClose();
    } catch (error) {
      const message = ticketErrorMessage(error);
      setFormError(message);
      showToast({ summary: message, severity: 'error' });
    } finally {
      setSending(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={TITLES[kind]} centered size="lg">
      <form onSubmit={(event) => void submit(event)} noValidate aria-label={TITLES[kind]}>
        <Stack gap="md">
          <SegmentedControl
            value={kind}
            onChange={(value) => {
              setKind(value as SupportModalKind);
              setErrors({});
            }}
            data={[
              { value: 'support', label: 'Ask for help' },
              { value: 'report_issue', label: 'Report an issue' },
              { value: 'feedback', label: 'Feedback' },
              { value: 'contact', label: 'Message us' },
            ]}
            aria-label="Request type"
          />
          <FormErrorAlert message={formError} />
          {kind === 'support' ? (
            <Select
              label="What is it about?"
              placeholder="Choose a request type"
              data={HELP_REQUEST_TYPES}
              value={requestType}
              onChange={(value) => {
                setRequestType(value as SupportRequestType | null);
                setErrors(({ requestType: _cleared, ...rest }) => rest);
              }}
              error={errors.requestType}
              maxDropdownHeight={180}
              withAsterisk
              allowDeselect={false}
            />
          ) : null}
          {kind === 'report_issue' ? (
            <Checkbox.Group value={issues} onChange={setIssues} label="What seems incorrect?">
              <Stack gap="xs" mt="xs">
                {REPORT_ISSUE_OPTIONS.map((option) => (
                  <Checkbox key={option} value={option} label={option} />
                ))}
              </Stack>
            </Checkbox.Group>
          ) : null}
          <Textarea
            label={TEXT_LABELS[kind]}
            required
            autosize
            minRows={4}
            maxRows={12}
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setErrors(({ text: _cleared, ...rest }) => rest);
            }}
            error={errors.text}
            data-autofocus
          />
          {kind === 'report_issue' ? (
            <Checkbox checked={consent} onChange={(event) => setConsent(event.currentTarget.checked)} label={REPORT_ISSUE_CONSENT} />
          ) : null}
          <FileInput
            label="Attachments"
            description="Screenshots, PDFs, sheets or documents: up to 5 files of 10 MB each."
            placeholder="Choose files"
            multiple
            clearable
            accept={SUPPORT_FILE_TYPES.join(',')}
            value={files}
            onChange={(value) => {
              setFiles(value);
              setErrors((current) => ({ ...current, files: attachmentsError(value) ?? undefined }));
            }}
            error={errors.files}
          />
          <Text size="xs" c="dimmed">
            We attach the page you are on so the team can see the context. Replies come by e-mail and under My requests.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={sending}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
