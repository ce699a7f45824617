import type { Order } from '@dart/contracts';
import { Alert, Button, EmptyState, Group, Pagination, Paper, Select, Skeleton, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useMemo, useState } from 'react';
import { AlertIcon, ReceiptIcon, SearchIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { formatCount, formatSize } from '../../../lib/format';
import { canTrade as canTradeFor, useSession } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { downloadContractNote } from '../api/download-contract-note';
import { exportOrders, type OrderExportFormat } from '../api/export-orders';
import { ORDER_PAGE_SIZES, useOrders } from '../api/list-orders';
import { useOrderCommands } from '../hooks/use-order-commands';
import { useOrderLiveUpdates } from '../hooks/use-order-live-updates';
import {
  countActiveFilters,
  EMPTY_ORDER_FILTERS,
  filterProblems,
  hasProblems,
  toOrderQuery,
  type OrderFilters,
} from '../utils/order-filters';
import { hasContractNote, ORDER_ACTION_LABELS, orderActions, type OrderActionId } from '../utils/order-format';
import { LazyOrdersGrid } from './lazy-orders-grid';
import { OrderActionDialog, type PendingOrderAction } from './order-action-dialog';
import { OrderFiltersBar } from './order-filters-bar';
import classes from './transactions.module.css';

/**
 * /client/transactions: the firm's orders (it sold) and procurement orders (it bought) in one blotter, filtered and
 * paged on the server, live; CSV/XLSX export of the same filters, a contract note per trade, and for traders the
 * actions each order's state allows. Dealers, viewers and back office (Premium) see it; only traders act.
 */
export function TransactionsPage() {
  const { user } = useSession();
  const canTrade = canTradeFor(user);
  const [filters, setFilters] = useState<OrderFilters>(EMPTY_ORDER_FILTERS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(ORDER_PAGE_SIZES[1]);
  const [focused, setFocused] = useState<Order | null>(null);
  const [pending, setPending] = useState<PendingOrderAction | null>(null);
  const [exporting, setExporting] = useState<OrderExportFormat | null>(null);
  const commands = useOrderCommands();
  useOrderLiveUpdates();

  // Filters apply 300 ms after the last change: typing a search or a value sends one request, not one per key.
  const [applied] = useDebouncedValue(filters, 300);
  const problems = useMemo(() => filterProblems(applied), [applied]);
  const valid = !hasProblems(problems);
  const query = useMemo(() => toOrderQuery(applied), [applied]);
  const orders = useOrders(query, page, pageSize, valid);
  const active = countActiveFilters(filters);
  const shownProblems = useMemo(() => filterProblems(filters), [filters]);

  const change = (next: OrderFilters) => {
    setFilters(next);
    setPage(1);
  };

  const onAction = useCallback((order: Order, action: OrderActionId) => setPending({ order, action }), []);
  const onContractNote = useCallback((order: Order) => {
    downloadContractNote(order).then(
      () => showToast({ severity: 'success', summary: 'Contract note downloaded', detail: order.number }),
      (error: unknown) => showToast({ severity: 'error', summary: 'Could not download the contract note', detail: describeError(error) }),
    );
  }, []);

  async function runExport(format: OrderExportFormat) {
    setExporting(format);
    try {
      await exportOrders(query, format);
      showToast({ severity: 'success', summary: 'Export ready', detail: `The transactions were saved as ${format.toUpperCase()}.` });
    } catch (error) {
      showToast({ severity: 'error', summary: 'Export failed', detail: describeError(error) });
    } finally {
      setExporting(null);
    }
  }

  const data = orders.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.count / pageSize)) : 1;
  // The toolbar acts on the focused row as it is now (a live update may have changed it).
  const current = focused ? (data?.results.find((row) => row.id === focused.id) ?? null) : null;
  const currentActions = current && canTrade ? orderActions(current) : [];

  return (
    <Paper withBorder radius="lg" p={0} style={{ overflow: 'hidden' }}>
      <Group justify="space-between" px="md" pt="sm" pb="xs" wrap="wrap">
        <div>
          <Text fw={600}>Orders and procurement orders</Text>
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="transactions-count">
            {!valid
              ? 'Correct the filters to see orders'
              : data
                ? `${formatCount(data.count)} ${data.count === 1 ? 'order' : 'orders'}`
                : 'Loading orders…'}
          </Text>
        </div>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            onClick={() => void orders.refetch()}
            loading={orders.isFetching && !orders.isPending}
            disabled={!valid}
          >
            Refresh
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => void runExport('csv')}
            loading={exporting === 'csv'}
            disabled={!valid || data?.count === 0}
          >
            Export CSV
          </Button>
          <Button size="xs" onClick={() => void runExport('xlsx')} loading={exporting === 'xlsx'} disabled={!valid || data?.count === 0}>
            Export XLSX
          </Button>
        </Group>
      </Group>
      <OrderFiltersBar filters={filters} onChange={change} problems={shownProblems} activeCount={active} />
      <Group gap="xs" px="md" py={4} className={classes.toolbar} aria-label="Focused order" wrap="wrap">
        {current ? (
          <>
            <Text size="xs" className={classes.mono} fw={600}>
              {current.number}
            </Text>
            <Text size="xs" c="dimmed">
              {current.buy_or_sell === 'sell' ? 'Sell' : 'Buy'} {formatSize(current.quantum)} · {current.state_label}
            </Text>
            {hasContractNote(current) ? (
              <Button size="compact-xs" variant="subtle" onClick={() => onContractNote(current)}>
                Contract note
              </Button>
            ) : null}
            {currentActions.map((action) => (
              <Button
                key={action}
                size="compact-xs"
                variant={action === 'accept' || action === 'settle' ? 'light' : 'default'}
                color={action === 'accept' || action === 'settle' ? undefined : 'red'}
                onClick={() => onAction(current, action)}
              >
                {ORDER_ACTION_LABELS[action]}
              </Button>
            ))}
          </>
        ) : (
          <Text size="xs" c="dimmed">
            Click a row, or move to it with the arrow keys, to act on it here.
          </Text>
        )}
      </Group>
      {orders.isError ? (
        <Alert m="md" color="red" variant="light" icon={<AlertIcon />} title="Could not load the transactions" role="alert">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{describeError(orders.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void orders.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : !valid ? null : !data ? (
        <Stack p="md" gap="xs" aria-busy="true">
          {Array.from({ length: 8 }, (_, index) => (
            <Skeleton key={index} height={28} />
          ))}
        </Stack>
      ) : data.results.length === 0 ? (
        active > 0 || applied.state ? (
          <EmptyState
            py="xl"
            icon={<SearchIcon size={28} />}
            withIndicatorBackground
            title="No orders match these filters"
            description="Choose another state, widen the filters, or clear them."
          />
        ) : (
          <EmptyState
            py="xl"
            icon={<ReceiptIcon size={28} />}
            withIndicatorBackground
            title="No transactions yet"
            description="When both sides of a ticket accept the consideration, your firm's order (a sale) or procurement order (a purchase) appears here, with its reporting to the exchange and its settlement."
          />
        )
      ) : (
        <LazyOrdersGrid
          rows={data.results}
          canTrade={canTrade}
          onAction={onAction}
          onContractNote={onContractNote}
          onFocusRow={setFocused}
          stale={orders.isPlaceholderData}
        />
      )}
      {valid && data && data.count > 0 ? (
        <Group justify="space-between" px="md" py="sm" wrap="wrap">
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              Page {formatCount(page)} of {formatCount(totalPages)}
            </Text>
            <Select
              size="xs"
              w={110}
              aria-label="Rows per page"
              data={ORDER_PAGE_SIZES.map((size) => ({ value: String(size), label: `${size} / page` }))}
              value={String(pageSize)}
              allowDeselect={false}
              onChange={(value) => {
                setPageSize(Number(value));
                setPage(1);
              }}
            />
          </Group>
          {totalPages > 1 ? (
            <Pagination total={totalPages} value={page} onChange={setPage} size="sm" aria-label="Transactions pages" />
          ) : null}
        </Group>
      ) : null}
      <OrderActionDialog pending={pending} onClose={() => setPending(null)} commands={commands} />
    </Paper>
  );
}
