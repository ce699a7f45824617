import { Alert, Badge, Button, Divider, Drawer, Group, Skeleton, Stack, Table, Text, Timeline, Title, UnstyledButton } from '@mantine/core';
import { readableFacts } from '@dart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AlertIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { downloadEvidencePack } from '../api/export-alerts';
import { useAlert, type SurveillanceAlertDetail } from '../api/get-alert';
import { AUDIT_KEY } from '../api/get-audit-entries';
import { ALERT_STATUS_COLORS, describeTriageEvent, groupEvidence, scoreColor } from '../utils/alert-format';
import { useFileSave } from '../hooks/use-file-save';
import { AlertTriage } from './alert-triage';
import classes from './surveillance.module.css';

export interface AlertDrawerProps {
  /** The alert shown; null: closed. */
  alertId: string | null;
  /** Follows a linked alert (the drawer shows it instead). */
  onOpen: (id: string) => void;
  onClose: () => void;
  userOptions: Array<{ value: string; label: string }>;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} fz="sm" fw={600}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** A linked alert as a button naming it (its own detail call: the contract gives ids only). */
function LinkedAlert({ id, onOpen }: { id: string; onOpen: (id: string) => void }) {
  const linked = useAlert(id);
  if (linked.isError) return null;
  return (
    <UnstyledButton onClick={() => onOpen(id)} data-testid="linked-alert" className={classes.evidenceItem}>
      {linked.data ? (
        <Group gap="xs" wrap="nowrap">
          <Badge color={scoreColor(linked.data.score)} variant="filled" radius="sm" size="sm" className={classes.score}>
            {linked.data.score}
          </Badge>
          <div>
            <Text size="sm" className={classes.title}>
              {linked.data.title}
            </Text>
            <Text size="xs" c="dimmed">
              {linked.data.kind_label} · {linked.data.status_label} · {formatDateTime(linked.data.occurred_at)}
            </Text>
          </div>
        </Group>
      ) : (
        <Skeleton height={20} width={240} />
      )}
    </UnstyledButton>
  );
}

function AlertBody({ alert, onOpen, userOptions }: { alert: SurveillanceAlertDetail } & Omit<AlertDrawerProps, 'alertId' | 'onClose'>) {
  const pdf = useFileSave({ summary: 'Evidence pack ready', detail: 'The alert’s evidence was saved as a PDF.' }, 'Download failed');
  const queryClient = useQueryClient();
  const facts = readableFacts(alert.facts);
  const evidence = groupEvidence(alert.evidence);

  const downloadPdf = () =>
    pdf.save(async () => {
      await downloadEvidencePack(alert.id);
      // The download is audited: the trail below shows it.
      void queryClient.invalidateQueries({ queryKey: AUDIT_KEY });
    });

  return (
    <Stack gap="lg" data-testid="alert-detail" data-alert={alert.id}>
      <Stack gap="xs">
        <Group gap="xs">
          <Badge color={scoreColor(alert.score)} variant="filled" radius="sm" className={classes.score}>
            Score {alert.score}
          </Badge>
          <Badge variant="light" color="gray" radius="sm" tt="none" fw={500}>
            {alert.kind_label}
          </Badge>
          <Badge variant="light" color={ALERT_STATUS_COLORS[alert.status]} radius="sm" tt="none" fw={500} data-testid="alert-status">
            {alert.status_label}
          </Badge>
          <Text size="sm" c="dimmed" data-testid="alert-assignee">
            {alert.assignee_name ? `Assigned to ${alert.assignee_name}` : 'Unassigned'}
          </Text>
        </Group>
        <Text size="sm">{alert.summary}</Text>
        <Text size="xs" c="dimmed" className={classes.mono}>
          Happened {formatDateTime(alert.occurred_at)} · raised {formatDateTime(alert.created_at)}
        </Text>
        <Group>
          <Button size="xs" variant="default" onClick={() => void downloadPdf()} loading={pdf.saving}>
            Download evidence pack (PDF)
          </Button>
        </Group>
      </Stack>

      {facts.length > 0 ? (
        <Section title="Facts">
          <Table withTableBorder={false} verticalSpacing={2} fz="sm" aria-label="Facts behind the score" data-testid="alert-facts">
            <Table.Tbody>
              {facts.map((fact) => (
                <Table.Tr key={fact.key}>
                  <Table.Th w={200} fw={500} c="dimmed">
                    {fact.label}
                  </Table.Th>
                  <Table.Td className={classes.mono}>{fact.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Section>
      ) : null}

      <Section title="Evidence">
        {evidence.length === 0 ? (
          <Text size="sm" c="dimmed">
            No evidence items.
          </Text>
        ) : (
          evidence.map((group) => (
            <Stack key={group.type} gap={6} data-testid="evidence-group" data-type={group.type}>
              <Text size="xs" fw={600} tt="uppercase" c="dimmed">
                {group.label}
                {group.items.length > 1 ? ` (${group.items.length})` : ''}
              </Text>
              {group.items.map((item) => (
                <div key={`${item.type}:${item.id}`} className={classes.evidenceItem}>
                  {item.at ? (
                    <Text size="xs" c="dimmed" className={classes.mono}>
                      {formatDateTime(item.at)}
                    </Text>
                  ) : null}
                  <Text size="sm" className={classes.excerpt}>
                    {item.excerpt}
                  </Text>
                </div>
              ))}
            </Stack>
          ))
        )}
      </Section>

      {alert.linked_alert_ids.length > 0 ? (
        <Section title="Linked alerts">
          <Text size="xs" c="dimmed">
            Other alerts about the same two firms within 7 days.
          </Text>
          {alert.linked_alert_ids.slice(0, 20).map((id) => (
            <LinkedAlert key={id} id={id} onOpen={onOpen} />
          ))}
        </Section>
      ) : null}

      <Divider />
      <Section title="Triage">
        <AlertTriage key={alert.id} alert={alert} userOptions={userOptions} />
      </Section>

      <Section title="History">
        {alert.history.length === 0 ? (
          <Text size="sm" c="dimmed">
            No triage yet.
          </Text>
        ) : (
          <Timeline bulletSize={12} lineWidth={2} active={alert.history.length} data-testid="alert-history">
            {alert.history.map((event) => (
              <Timeline.Item key={event.id} title={<Text size="sm">{describeTriageEvent(event)}</Text>}>
                {event.comment ? (
                  <Text size="sm" c="dimmed" className={classes.excerpt}>
                    {event.comment}
                  </Text>
                ) : null}
                <Text size="xs" c="dimmed" className={classes.mono}>
                  {formatDateTime(event.at)}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Section>
    </Stack>
  );
}

/** The alert's detail in a drawer: summary, facts, evidence, linked alerts, triage and its history, the PDF. */
export function AlertDrawer({ alertId, onOpen, onClose, userOptions }: AlertDrawerProps) {
  const query = useAlert(alertId);
  return (
    <Drawer
      opened={alertId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={
        <Text fw={600} component="span">
          {query.data?.title ?? 'Alert'}
        </Text>
      }
      closeButtonProps={{ 'aria-label': 'Hide alert details' }}
    >
      {query.isError ? (
        <Alert color="red" variant="light" icon={<AlertIcon />} title="Could not load the alert" role="alert">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{describeError(query.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : !query.data ? (
        <Stack gap="xs" aria-busy="true">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} height={24} />
          ))}
        </Stack>
      ) : (
        <AlertBody alert={query.data} onOpen={onOpen} userOptions={userOptions} />
      )}
    </Drawer>
  );
}
