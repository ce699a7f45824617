import { HttpError } from '@dart/client';
import {
  SurveillanceAssignSchema,
  SurveillanceCloseSchema,
  SurveillanceCommentSchema,
  SurveillanceEscalateSchema,
  type SurveillanceAlertDetail,
  type SurveillanceTriageAction,
} from '@dart/contracts';
import { Alert, Button, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { describeError } from '../../../lib/errors';
import { useSessionUser } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { useTriageAlert, type TriageBodies } from '../api/triage-alert';

type FieldErrors = Record<string, string>;

/** The schema's field errors by field (the same rules and messages as the server). */
function schemaErrors(result: z.ZodSafeParseResult<unknown>): FieldErrors {
  const errors: FieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? '');
    if (!errors[key]) errors[key] = issue.message;
  }
  return errors;
}

/** The server's field errors (400 `errors`), else nothing. */
function serverErrors(error: unknown): FieldErrors {
  const errors: FieldErrors = {};
  if (error instanceof HttpError && error.body.errors)
    for (const [key, messages] of Object.entries(error.body.errors)) if (messages[0]) errors[key] = messages[0];
  return errors;
}

const DONE: Record<SurveillanceTriageAction, string> = {
  assign: 'Alert assigned',
  comment: 'Comment added',
  escalate: 'Alert escalated',
  close: 'Alert closed',
};

/**
 * One triage form's state: checks the body with the contract's schema, posts it with a fresh Idempotency-Key, and
 * puts the server's field errors (or its message) back on the form.
 */
function useTriageForm<A extends SurveillanceTriageAction>(alertId: string, action: A, schema: z.ZodType<TriageBodies[A]>) {
  const mutation = useTriageAlert<A>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  async function submit(body: unknown): Promise<boolean> {
    setMessage(null);
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      setErrors(schemaErrors(parsed));
      return false;
    }
    setErrors({});
    try {
      await mutation.mutateAsync({ alertId, action, body: parsed.data, idempotencyKey: crypto.randomUUID() });
      showToast({ summary: DONE[action], severity: 'success' });
      return true;
    } catch (error) {
      const fields = serverErrors(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setMessage(describeError(error));
      return false;
    }
  }
  return { submit, errors, message, pending: mutation.isPending };
}

function FormMessage({ message }: { message: string | null }) {
  return message ? (
    <Alert color="red" variant="light" p="xs" role="alert">
      <Text size="sm">{message}</Text>
    </Alert>
  ) : null;
}

const optional = (text: string) => (text.trim() ? text : undefined);

export interface AlertTriageProps {
  alert: SurveillanceAlertDetail;
  /** The firm's people (the server accepts its compliance officers only, and says so on the field). */
  userOptions: Array<{ value: string; label: string }>;
}

/** Assign, comment, escalate, close with a reason: each its own small form, every step audited on the server. */
export function AlertTriage({ alert, userOptions }: AlertTriageProps) {
  const me = useSessionUser().user_info.id;
  const [assignee, setAssignee] = useState<string | null>(alert.assignee_id ?? me);
  const [comment, setComment] = useState('');
  const [escalation, setEscalation] = useState('');
  const [reason, setReason] = useState('');
  const assign = useTriageForm(alert.id, 'assign', SurveillanceAssignSchema);
  const addComment = useTriageForm(alert.id, 'comment', SurveillanceCommentSchema);
  const escalate = useTriageForm(alert.id, 'escalate', SurveillanceEscalateSchema);
  const close = useTriageForm(alert.id, 'close', SurveillanceCloseSchema);

  const onSubmit = (run: () => Promise<unknown>) => (event: FormEvent) => {
    event.preventDefault();
    void run();
  };

  if (alert.status === 'closed')
    return (
      <Text size="sm" c="dimmed" data-testid="alert-closed">
        This alert is closed.
      </Text>
    );

  return (
    <Stack gap="md">
      <form aria-label="Assign the alert" onSubmit={onSubmit(() => assign.submit({ assignee_id: assignee ?? '' }))}>
        <Stack gap={6}>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <Select
              label="Assignee"
              placeholder="Choose a compliance officer"
              data={userOptions}
              value={assignee}
              onChange={setAssignee}
              searchable
              nothingFoundMessage="No user of your firm matches"
              error={assign.errors.assignee_id}
              style={{ flex: 1 }}
              size="sm"
            />
            <Button type="submit" loading={assign.pending} variant="light" mb={assign.errors.assignee_id ? 22 : 0}>
              Assign
            </Button>
          </Group>
          <FormMessage message={assign.message} />
        </Stack>
      </form>

      <form
        aria-label="Comment on the alert"
        onSubmit={onSubmit(async () => {
          if (await addComment.submit({ comment })) setComment('');
        })}
      >
        <Stack gap={6}>
          <Textarea
            label="Comment"
            placeholder="What you checked, whom you asked, what you found"
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            error={addComment.errors.comment}
            autosize
            minRows={2}
            maxRows={6}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={addComment.pending} variant="light">
              Add comment
            </Button>
          </Group>
          <FormMessage message={addComment.message} />
        </Stack>
      </form>

      <form
        aria-label="Escalate the alert"
        onSubmit={onSubmit(async () => {
          if (await escalate.submit({ comment: optional(escalation) })) setEscalation('');
        })}
      >
        <Stack gap={6}>
          <Textarea
            label="Escalation note (optional)"
            value={escalation}
            onChange={(event) => setEscalation(event.currentTarget.value)}
            error={escalate.errors.comment}
            autosize
            minRows={1}
            maxRows={4}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={escalate.pending} color="orange" variant="light" disabled={alert.status === 'escalated'}>
              Escalate
            </Button>
          </Group>
          <FormMessage message={escalate.message} />
        </Stack>
      </form>

      <form
        aria-label="Close the alert"
        onSubmit={onSubmit(async () => {
          if (await close.submit({ reason })) setReason('');
        })}
      >
        <Stack gap={6}>
          <Textarea
            label="Reason for closing"
            description="Required: what was found and why no further action is needed (or what was done)."
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            error={close.errors.reason}
            autosize
            minRows={2}
            maxRows={6}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={close.pending} color="red" variant="light">
              Close alert
            </Button>
          </Group>
          <FormMessage message={close.message} />
        </Stack>
      </form>
    </Stack>
  );
}
