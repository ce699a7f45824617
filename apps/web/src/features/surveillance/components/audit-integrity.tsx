import { Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { describeError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useAuditIntegrity } from '../api/get-audit-integrity';

/**
 * The trail's tamper evidence, checked on the server (every row's hash, every seal): intact or broken, when it was
 * checked and sealed through, and "Check again".
 */
export function AuditIntegrityStatus() {
  const query = useAuditIntegrity();
  const data = query.data;
  return (
    <Group gap="xs" wrap="wrap" data-testid="audit-integrity" data-intact={data ? String(data.intact) : undefined} aria-live="polite">
      {query.isError ? (
        <Text size="xs" c="red">
          Could not check the chain: {describeError(query.error)}
        </Text>
      ) : !data ? (
        <Text size="xs" c="dimmed">
          Checking the hash chain…
        </Text>
      ) : (
        <>
          <Tooltip
            label={
              data.intact
                ? 'Every entry matches its hash and every seal matches the entries it covers: nothing was changed, removed, added or moved.'
                : 'An entry no longer matches its hash or its seal: the trail was tampered with. Tell your security team.'
            }
            multiline
            w={300}
          >
            <Badge color={data.intact ? 'teal' : 'red'} variant="light" radius="sm" tt="none" fw={600}>
              {data.intact ? 'Hash chain intact' : 'Hash chain broken'}
            </Badge>
          </Tooltip>
          <Text size="xs" c="dimmed">
            Checked {formatDateTime(data.checked_at)}
            {data.sealed_through ? ` · sealed through ${formatDateTime(data.sealed_through)}` : ''}
          </Text>
        </>
      )}
      <Button size="compact-xs" variant="subtle" onClick={() => void query.refetch()} loading={query.isFetching}>
        Check again
      </Button>
    </Group>
  );
}
