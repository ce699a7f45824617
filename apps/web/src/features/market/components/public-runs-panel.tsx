import { MARKET_PAGE_SIZE_MAX, type Quote } from '@dart/contracts';
import { Alert, Button, EmptyState, Group, Loader, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { BroadcastIcon, SearchIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';
import { useCloseQuotes } from '../api/close-quotes';
import { usePublicRuns } from '../api/list-public-runs';
import { formatCount } from '../../../lib/format';
import { MarketPanel } from './market-panel';
import { LazyRunsGrid as RunsGrid } from './lazy-runs-grid';

export interface PublicRunsPanelProps {
  canTrade: boolean;
  onOpen: (quote: Quote) => void;
  onClose: (quote: Quote) => void;
  /** Shown in the header (e.g. the live-connection state). */
  status?: ReactNode;
  /** Change (update / replace) an own quote. */
  onEdit?: (quote: Quote) => void;
  /** A row was picked (its bond's depth is shown). */
  onPick?: (quote: Quote) => void;
  /** Opens the bulk upload dialog. */
  onUpload?: () => void;
}

const PAGE_SIZE = MARKET_PAGE_SIZE_MAX;

/** Public runs: the market blotter with search, "my quotes" and live row updates. */
export function PublicRunsPanel({ canTrade, onOpen, onClose, status, onEdit, onPick, onUpload }: PublicRunsPanelProps) {
  const [search, setSearch] = useState('');
  const [myQuotes, setMyQuotes] = useState(false);
  const [page, setPage] = useState(1);
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const runs = usePublicRuns({ page, page_size: PAGE_SIZE, search: debouncedSearch, my_quotes: myQuotes });
  const data = runs.data;
  const rows = data?.results ?? [];
  const pages = data ? Math.max(1, Math.ceil(data.count / PAGE_SIZE)) : 1;
  const restricted = Boolean(data?.restriction_text);
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(new Set());
  const closeMany = useCloseQuotes();
  // Only what is still open and yours counts (a live update may have closed or filled a ticked quote).
  const selected = rows.filter((q) => selectedIds.has(q.id) && q.is_mine && q.status === 'open');

  const closeSelected = () =>
    closeMany.mutate(
      selected.map((q) => q.id),
      {
        onSuccess: (result) => {
          setSelectedIds(new Set());
          showToast({
            severity: 'info',
            summary: `${result.closed.length} ${result.closed.length === 1 ? 'quote' : 'quotes'} closed`,
          });
        },
        onError: (error) => showToast({ severity: 'error', summary: 'Could not close the quotes', detail: describeError(error) }),
      },
    );

  return (
    <MarketPanel
      id="public-runs"
      fill
      title="Public runs"
      icon={<BroadcastIcon />}
      actions={
        <>
          {runs.isFetching ? <Loader size="xs" aria-label="Loading public runs" /> : null}
          {canTrade && onUpload ? (
            <Button size="compact-sm" variant="light" onClick={onUpload}>
              Upload quotes
            </Button>
          ) : null}
          {status}
        </>
      }
    >
      <Group gap="sm" mb="sm" wrap="wrap">
        <TextInput
          aria-label="Filter public runs"
          placeholder="Filter by bond name or ISIN"
          leftSection={<SearchIcon size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={280}
          size="xs"
          disabled={restricted}
        />
        <Switch
          label="My quotes"
          checked={myQuotes}
          onChange={(event) => {
            setMyQuotes(event.currentTarget.checked);
            setPage(1);
          }}
          disabled={restricted}
          size="sm"
        />
        {canTrade && selected.length > 0 ? (
          <Button size="compact-sm" color="red" variant="light" onClick={closeSelected} loading={closeMany.isPending}>
            Close selected ({selected.length})
          </Button>
        ) : null}
        {data && !restricted ? (
          <Text size="xs" c="dimmed" ml="auto" data-testid="public-runs-count">
            {formatCount(data.count)} {data.count === 1 ? 'quote' : 'quotes'}
          </Text>
        ) : null}
      </Group>

      {runs.isError ? (
        <Alert color="red" variant="light" title="Could not load public runs">
          {describeError(runs.error)}
        </Alert>
      ) : restricted ? (
        <Alert color="yellow" variant="light" title="No trade access" data-testid="restriction-text">
          {data?.restriction_text}
        </Alert>
      ) : data && rows.length === 0 ? (
        <EmptyState
          size="sm"
          icon={<BroadcastIcon />}
          withIndicatorBackground
          title={debouncedSearch || myQuotes ? 'No quotes match' : 'No public runs'}
          description={
            debouncedSearch || myQuotes
              ? 'Clear the filter or switch off "My quotes" to see the whole market.'
              : 'Runs broadcast to the wider Dart network will show here as they are published.'
          }
          py="xl"
        />
      ) : (
        <RunsGrid
          rows={rows}
          label="Public runs"
          height="fill"
          onOpen={onOpen}
          onClose={onClose}
          canTrade={canTrade}
          {...(onEdit ? { onEdit } : {})}
          {...(onPick ? { onPick } : {})}
          onSelectionChange={(quotes) => setSelectedIds(new Set(quotes.map((q) => q.id)))}
        />
      )}

      {pages > 1 && !restricted ? (
        <Group justify="flex-end" gap="xs" mt="xs">
          <Button size="compact-sm" variant="default" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Previous
          </Button>
          <Text size="sm">
            Page {page} of {pages}
          </Text>
          <Button size="compact-sm" variant="default" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            Next
          </Button>
        </Group>
      ) : null}
    </MarketPanel>
  );
}
