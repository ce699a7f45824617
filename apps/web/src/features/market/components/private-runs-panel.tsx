import type { Quote } from '@dart/contracts';
import { Alert, EmptyState } from '@mantine/core';
import { ListIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { usePrivateRuns } from '../api/list-private-runs';
import { MarketPanel } from './market-panel';
import { LazyRunsGrid as RunsGrid } from './lazy-runs-grid';

export interface PrivateRunsPanelProps {
  canTrade: boolean;
  onOpen: (quote: Quote) => void;
  onClose: (quote: Quote) => void;
}

/** Private runs: quotes sent to chosen counterparties (by the caller's firm, or to it). */
export function PrivateRunsPanel({ canTrade, onOpen, onClose }: PrivateRunsPanelProps) {
  const runs = usePrivateRuns({ page: 1, page_size: 50 });
  const rows = runs.data?.results ?? [];
  return (
    <MarketPanel id="private-runs" fill title="Private runs" icon={<ListIcon />}>
      {runs.isError ? (
        <Alert color="red" variant="light" title="Could not load private runs">
          {describeError(runs.error)}
        </Alert>
      ) : runs.data?.restriction_text ? (
        <Alert color="yellow" variant="light" title="No trade access">
          {runs.data.restriction_text}
        </Alert>
      ) : runs.data && rows.length === 0 ? (
        <EmptyState
          size="sm"
          icon={<ListIcon />}
          withIndicatorBackground
          title="No private runs"
          description="Bid and ask levels shared privately with chosen counterparties will show here."
          py="lg"
        />
      ) : (
        <RunsGrid rows={rows} label="Private runs" onOpen={onOpen} onClose={onClose} canTrade={canTrade} height="fill" showSender />
      )}
    </MarketPanel>
  );
}
