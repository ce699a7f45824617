import { INVENTORY_PAGE_SIZE_MAX, type Position } from '@dart/contracts';
import { Alert, Button, EmptyState, Group, Pagination, Paper, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { AlertIcon, BoxIcon } from '../../../components/ui/icons';
import { describeError, statusOf } from '../../../lib/errors';
import { formatDate, formatDateTime, formatSize } from '../../../lib/format';
import { useCanTrade, useCanWrite } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { useInventory } from '../api/get-inventory';
import { confirmPrevious, useBookMutation } from '../api/inventory-commands';
import { downloadHoldingsTemplate } from '../api/upload-holdings';
import { useInventoryLiveUpdates } from '../hooks/use-inventory-live-updates';
import { bookRows, GROUPING_LABELS, GROUPINGS, totalsRow, type Grouping } from '../utils/book-rows';
import { BookSummary } from './book-summary';
import { CashflowCalendar } from './cashflow-calendar';
import { EditCostDialog } from './edit-cost-dialog';
import { ExternalTradeDialog, type ExternalTradeTarget } from './external-trade-dialog';
import type { HoldingAction } from './inventory-grid';
import { LazyInventoryGrid } from './lazy-inventory-grid';
import { OfferDialog, type CounterpartySlot } from './offer-dialog';
import { UploadHoldingsDialog } from './upload-holdings-dialog';

export interface InventoryPageProps {
  /** The counterparty picker for a private-run offer (the market's, handed in by the route). */
  renderCounterparties?: CounterpartySlot;
}

/**
 * /inventory: the firm's bond book valued on the reference price waterfall — totals and breakdowns, the maturity
 * profile, the book grouped by issuer, rating or maturity bucket with its totals row, the cash-flow calendar —
 * and, for writers, the upload, "Edit valuation cost", "Offer", "Record external trade" and "Confirm previous day".
 */
export function InventoryPage({ renderCounterparties }: InventoryPageProps) {
  const canWrite = useCanWrite();
  const canTrade = useCanTrade();
  const [page, setPage] = useState(1);
  const book = useInventory(page);
  // Re-valued live: a new reference price of a held bond refetches the book (hooks/use-inventory-live-updates.ts).
  useInventoryLiveUpdates();
  const [grouping, setGrouping] = useState<Grouping>('none');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [focused, setFocused] = useState<Position | null>(null);
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<Position | null>(null);
  const [offering, setOffering] = useState<Position | null>(null);
  const [trading, setTrading] = useState<ExternalTradeTarget | null>(null);
  const [confirmKey, setConfirmKey] = useState(() => crypto.randomUUID());
  const confirm = useBookMutation((bookDate: string, key: string) => confirmPrevious(bookDate, key));

  const data = book.data;
  const rows = useMemo(() => (data ? bookRows(data.results, grouping, collapsed) : []), [data, grouping, collapsed]);
  const total = useMemo(() => (data && data.count > 0 ? totalsRow(data) : null), [data]);
  const onToggleGroup = useCallback(
    (key: string) =>
      setCollapsed((old) => {
        const next = new Set(old);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
    [],
  );
  const onAction = useCallback((position: Position, action: HoldingAction) => {
    if (action === 'edit_cost') setEditing(position);
    else if (action === 'offer') setOffering(position);
    else setTrading({ position, side: 'SELL' });
  }, []);

  async function confirmDay() {
    if (!data) return;
    try {
      const result = await confirm.mutateAsync({ variables: data.book_date, key: confirmKey });
      showToast({
        severity: 'success',
        summary: 'Previous day confirmed',
        detail: `The book of ${formatDate(result.previous_book_date)} (${result.positions} holdings) is carried forward to ${formatDate(result.book_date)}.`,
      });
      setConfirmKey(crypto.randomUUID());
    } catch (error) {
      showToast({ severity: 'error', summary: 'Could not confirm the previous day', detail: describeError(error) });
      setConfirmKey(crypto.randomUUID());
    }
  }

  const template = () =>
    void downloadHoldingsTemplate('csv').catch((error: unknown) =>
      showToast({ severity: 'error', summary: 'Could not download the template', detail: describeError(error) }),
    );

  if (book.isError && !data) {
    const status = statusOf(book.error);
    return (
      <Alert color="red" variant="light" icon={<AlertIcon />} title="Could not load the book" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {status === 402
              ? 'Inventory is part of the Premium plan.'
              : status === 403
                ? 'Your role does not include inventory access. Ask your firm’s admin.'
                : describeError(book.error)}
          </Text>
          {status >= 500 || status === 0 ? (
            <Button size="xs" variant="light" onClick={() => void book.refetch()}>
              Try again
            </Button>
          ) : null}
        </Stack>
      </Alert>
    );
  }

  const totalPages = data ? Math.max(1, Math.ceil(data.count / INVENTORY_PAGE_SIZE_MAX)) : 1;
  return (
    <Stack gap="md">
      {data?.needs_confirmation ? (
        <Alert color="yellow" variant="light" title="Confirm the previous day" data-testid="inventory-needs-confirmation">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">
              The book is dated {formatDate(data.book_date)}. Review the holdings and their valuation, then confirm to carry them forward to
              today.
            </Text>
            {canWrite ? (
              <Button size="xs" onClick={() => void confirmDay()} loading={confirm.isPending}>
                Confirm previous day
              </Button>
            ) : null}
          </Group>
        </Alert>
      ) : null}

      {!data ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading the book">
          <Skeleton height={64} />
          <Skeleton height={200} />
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} height={28} />
          ))}
        </Stack>
      ) : data.count === 0 ? (
        <Paper withBorder radius="md">
          <EmptyState
            py="xl"
            icon={<BoxIcon size={28} />}
            withIndicatorBackground
            title="No holdings yet — upload your book"
            description="Upload a CSV or XLSX of your holdings (ISIN, face value, valuation cost; date and account optional), or record a trade done outside Dart. Trades you settle on Dart add to it by themselves."
          >
            {canWrite ? (
              <Group gap="xs" justify="center" mt="sm">
                <Button onClick={() => setUploading(true)}>Upload book</Button>
                <Button variant="default" onClick={() => setTrading({ position: null, side: 'BUY' })}>
                  Record external trade
                </Button>
                <Button variant="subtle" onClick={template}>
                  Download template
                </Button>
              </Group>
            ) : null}
          </EmptyState>
        </Paper>
      ) : (
        <>
          <BookSummary inventory={data} />
          <Paper withBorder radius="md">
            <Group justify="space-between" px="sm" py={6} wrap="wrap" gap="xs">
              <Group gap="xs" wrap="wrap">
                <Text size="sm" c="dimmed">
                  Group by
                </Text>
                <SegmentedControl
                  size="xs"
                  aria-label="Group the book by"
                  value={grouping}
                  onChange={(value) => {
                    setGrouping(value as Grouping);
                    setCollapsed(new Set());
                  }}
                  data={GROUPINGS.map((value) => ({ value, label: GROUPING_LABELS[value] }))}
                />
                <Text size="xs" c="dimmed" data-testid="inventory-dates">
                  Book of {formatDate(data.book_date)} · valued for settlement on {formatDate(data.valuation_date)}
                  {data.confirmed_at ? ` · confirmed ${formatDateTime(data.confirmed_at)}` : ''}
                </Text>
              </Group>
              {canWrite ? (
                <Group gap="xs" wrap="wrap">
                  {focused ? (
                    <>
                      <Text size="xs" c="dimmed" maw={220} truncate="end">
                        {focused.display_name} · {formatSize(focused.face_value)}
                      </Text>
                      {canTrade ? (
                        <Button size="xs" variant="light" onClick={() => setOffering(focused)}>
                          Offer
                        </Button>
                      ) : null}
                      <Button size="xs" variant="light" onClick={() => setEditing(focused)}>
                        Edit valuation cost
                      </Button>
                    </>
                  ) : null}
                  <Button size="xs" variant="default" onClick={() => setTrading({ position: focused, side: focused ? 'SELL' : 'BUY' })}>
                    Record external trade
                  </Button>
                  <Button size="xs" onClick={() => setUploading(true)}>
                    Upload book
                  </Button>
                </Group>
              ) : null}
            </Group>
            <LazyInventoryGrid
              rows={rows}
              total={total}
              canWrite={canWrite}
              canTrade={canTrade}
              onAction={onAction}
              onToggleGroup={onToggleGroup}
              onFocusRow={setFocused}
              stale={book.isPlaceholderData}
            />
            {totalPages > 1 ? (
              <Group justify="space-between" px="sm" py="xs">
                <Text size="xs" c="dimmed">
                  {data.count} holdings; the totals and breakdowns cover all of them.
                </Text>
                <Pagination total={totalPages} value={page} onChange={setPage} size="sm" aria-label="Book pages" />
              </Group>
            ) : null}
          </Paper>
          <CashflowCalendar />
        </>
      )}

      <UploadHoldingsDialog opened={uploading} onClose={() => setUploading(false)} />
      <EditCostDialog position={editing} onClose={() => setEditing(null)} />
      <OfferDialog position={offering} onClose={() => setOffering(null)} renderCounterparties={renderCounterparties} />
      <ExternalTradeDialog target={trading} onClose={() => setTrading(null)} />
    </Stack>
  );
}
