import { HttpError } from '@dart/client';
import type { SessionUser } from '@dart/contracts';
import { Alert, Loader, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useSetWhatsAppConsent, useWhatsAppConsent } from '../api/whatsapp-consent';
import { describeConsent, describeConsentEntry } from '../utils/whatsapp-format';

/** How many earlier answers the section lists under the switch. */
const HISTORY_SHOWN = 5;

/**
 * The profile's "WhatsApp alerts" section (issue 16 §2): the user's own consent, when and from where it was given,
 * and the earlier answers. Any role may change it. A withdrawal works at once: the server cancels every message
 * still waiting for the user in the same transaction.
 */
export function WhatsAppConsentSection({ user }: { user: SessionUser }) {
  const userId = user.user_info.id;
  const consent = useWhatsAppConsent(userId);
  const update = useSetWhatsAppConsent(userId);
  const [fieldError, setFieldError] = useState<string | undefined>();
  // The answer being saved, shown at once (set in the click, so the switch never flips back while it saves).
  const [saving, setSaving] = useState<boolean | null>(null);

  async function save(consented: boolean) {
    setFieldError(undefined);
    setSaving(consented);
    try {
      await update.mutateAsync({ consented });
      showToast({
        severity: 'success',
        summary: consented ? 'WhatsApp alerts on' : 'WhatsApp alerts off',
        detail: consented ? undefined : 'Nothing more will be sent to you on WhatsApp.',
      });
    } catch (error) {
      setFieldError(error instanceof HttpError ? error.body.errors?.consented?.[0] : undefined);
      showToast({ severity: 'error', summary: 'Could not save your WhatsApp choice', detail: describeError(error) });
    } finally {
      setSaving(null);
    }
  }

  const data = consent.data;
  return (
    <Paper withBorder radius="lg" p="lg" aria-labelledby="whatsapp-consent-title" component="section" data-testid="whatsapp-consent">
      <Stack gap="md">
        <div>
          <Title order={2} fz={18} id="whatsapp-consent-title">
            WhatsApp alerts
          </Title>
          <Text size="sm" c="dimmed">
            Alerts of private runs and RFQs sent to your organisation, and messages of chats linked to WhatsApp, on your mobile number.
            Turning this off stops every message not yet sent.
          </Text>
        </div>
        {consent.isPending ? <Loader size="sm" aria-label="Loading your WhatsApp choice" /> : null}
        {consent.error ? (
          <Alert color="red" variant="light" title="Your WhatsApp choice could not be loaded">
            {describeError(consent.error)}
          </Alert>
        ) : null}
        {data ? (
          <>
            <Switch
              label="Send me alerts on WhatsApp"
              // A refusal puts the standing answer back.
              checked={saving ?? data.consented}
              disabled={update.isPending}
              error={fieldError}
              onChange={(event) => void save(event.currentTarget.checked)}
            />
            <Text size="sm" data-testid="whatsapp-consent-status">
              {describeConsent(data, formatDateTime)}
            </Text>
            {!data.has_mobile ? (
              <Alert color="yellow" variant="light">
                Your account has no mobile number, so nothing can be sent to you on WhatsApp.
              </Alert>
            ) : null}
            {data.history.length > 1 ? (
              <Stack gap={2} data-testid="whatsapp-consent-history">
                <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.4}>
                  Earlier answers
                </Text>
                {data.history.slice(1, 1 + HISTORY_SHOWN).map((entry) => (
                  <Text key={`${entry.at}-${entry.source}-${String(entry.consented)}`} size="xs" c="dimmed">
                    {describeConsentEntry(entry, formatDateTime)}
                  </Text>
                ))}
              </Stack>
            ) : null}
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
