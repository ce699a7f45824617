import type { TicketHistoryEntry } from '@dart/contracts';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../../lib/format';
import { describeChanges, sortHistory, stampColor, stampLabel, stateMove } from '../utils/history-format';
import { Section } from './ticket-details';
import classes from './tickets.module.css';

/**
 * The ticket's whole history as stamps, oldest first, like a Bloomberg ticket's Received / Quoted / Final
 * stamps: the stamp, who (and their firm) and when, the state it moved to, what changed and the reason.
 */
export function TicketHistory({ history }: { history: readonly TicketHistoryEntry[] }) {
  const entries = sortHistory(history);
  return (
    <Section title="History" testId="ticket-history">
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          No history yet.
        </Text>
      ) : (
        <ol className={classes.history} aria-label="Ticket history">
          {entries.map((entry) => {
            const move = stateMove(entry);
            const changes = describeChanges(entry.changes);
            return (
              <li key={entry.seq} className={classes.historyItem} data-testid="ticket-stamp" data-action={entry.action}>
                <Badge
                  variant="outline"
                  radius={2}
                  size="md"
                  color={stampColor(entry.action)}
                  className={classes.stamp}
                  data-testid="ticket-stamp-label"
                >
                  {stampLabel(entry)}
                </Badge>
                <Stack gap={1} className={classes.grow}>
                  <Group gap={6} wrap="wrap">
                    <Text size="sm" fw={600}>
                      {entry.actor_name}
                    </Text>
                    {entry.actor_firm ? (
                      <Text size="xs" c="dimmed">
                        {entry.actor_firm}
                      </Text>
                    ) : null}
                    <Text size="xs" c="dimmed" className={classes.historyWhen} ml="auto">
                      {formatDateTime(entry.at)}
                    </Text>
                  </Group>
                  {move ? (
                    <Text size="xs" c="dimmed">
                      {move}
                    </Text>
                  ) : null}
                  {changes.map((line) => (
                    <Text key={line} size="xs" className={classes.changeLine}>
                      {line}
                    </Text>
                  ))}
                  {entry.reason ? (
                    <Text size="xs" fs="italic">
                      Reason: {entry.reason}
                    </Text>
                  ) : null}
                </Stack>
              </li>
            );
          })}
        </ol>
      )}
    </Section>
  );
}
