import { Button, Checkbox, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';
import { useReportIssue } from '../api/report-issue';
import { describePricingDetails, type PricingDetails } from '../utils/pricing-details';

export const REPORT_ISSUE_OPTIONS = {
  price: 'Price/yield seems incorrect',
  maturity: 'Maturity date seems incorrect',
  callPut: 'Call/put information seems incorrect',
  others: 'Others',
} as const;
type IssueKey = keyof typeof REPORT_ISSUE_OPTIONS;
export const REPORT_ISSUE_CONSENT = 'Share pricing details entered by you with our support team. This helps to resolve issues quicker.';

interface ReportIssueModalProps {
  opened: boolean;
  onClose: () => void;
  /** 'rfq': a counter RFQ offers only price/yield and others (spec §2). */
  variant?: 'security' | 'rfq';
  bond: { isin: string; name: string };
  pricing: PricingDetails | null;
}

/** The report-issue modal of spec §2: four checkboxes, a comment and the consent to share the pricing details. */
export function ReportIssueModal({ opened, onClose, variant = 'security', bond, pricing }: ReportIssueModalProps) {
  const keys: IssueKey[] = variant === 'rfq' ? ['price', 'others'] : ['price', 'maturity', 'callPut', 'others'];
  const [issues, setIssues] = useState<IssueKey[]>([]);
  const [comment, setComment] = useState('');
  const [consent, setConsent] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const report = useReportIssue();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (issues.length === 0) {
      setError('Choose what seems incorrect.');
      return;
    }
    if (issues.includes('others') && !comment.trim()) {
      setError('Tell us what seems incorrect.');
      return;
    }
    setError(null);
    const message = [
      `Bond: ${bond.name} (${bond.isin})`,
      `Issues: ${issues.map((key) => REPORT_ISSUE_OPTIONS[key]).join('; ')}`,
      comment.trim() ? `Comment: ${comment.trim()}` : '',
      consent && pricing ? `Pricing details entered:\n${describePricingDetails(pricing)}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    try {
      await report.mutateAsync({ message, page: window.location.pathname });
      showToast({ summary: 'Issue reported', detail: 'Thank you. Our team will check this bond.', severity: 'success' });
      setIssues([]);
      setComment('');
      onClose();
    } catch (failure) {
      setError(describeError(failure));
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Report an issue" centered size="lg">
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Report an issue">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {bond.name} · {bond.isin}
          </Text>
          <Checkbox.Group value={issues} onChange={(value) => setIssues(value as IssueKey[])} label="What seems incorrect?" error={error}>
            <Stack gap="xs" mt="xs">
              {keys.map((key) => (
                <Checkbox key={key} value={key} label={REPORT_ISSUE_OPTIONS[key]} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Textarea
            label="Comment"
            autosize
            minRows={3}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            maxLength={2000}
          />
          <Checkbox checked={consent} onChange={(event) => setConsent(event.currentTarget.checked)} label={REPORT_ISSUE_CONSENT} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={report.isPending}>
              Report
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
