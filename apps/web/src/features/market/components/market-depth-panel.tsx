import type { DepthLevel, MarketInstrument } from '@dart/contracts';
import { Alert, Badge, Button, EmptyState, Group, Loader, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { ChartIcon, SearchIcon } from '../../../components/ui/icons';
import { describeError, statusOf } from '../../../lib/errors';
import { useDepth } from '../api/get-depth';
import { useInstruments } from '../api/list-instruments';
import { selectedBond } from '../stores/selected-bond';
import { formatPrice, formatSize, formatSizeWithCount, formatYield } from '../utils/market-format';
import { formatBondName } from '../../../lib/format';
import classes from './market.module.css';
import { MarketPanel } from './market-panel';

/** The bond whose depth is shown (picked in the blotter or the instruments list). */
export interface DepthBond {
  id: number;
  name: string;
  isin: string;
}

export interface MarketDepthPanelProps {
  selected: DepthBond | null;
  onSelect: (bond: DepthBond) => void;
  /** The 402 state's action (the route passes the support feature's 'Request Upgrade'). */
  renderUpgrade?: (page: string) => ReactNode;
}

const INSTRUMENTS_PAGE_SIZE = 8;

function Ladder({ side, levels }: { side: 'bid' | 'ask'; levels: DepthLevel[] }) {
  const label = side === 'bid' ? 'Bids' : 'Asks';
  return (
    <Table
      striped
      highlightOnHover
      withTableBorder
      verticalSpacing={4}
      fz="xs"
      aria-label={`${label} by price level`}
      data-testid={`depth-${side}s`}
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th c={side === 'bid' ? 'teal' : 'red'}>{label}</Table.Th>
          <Table.Th ta="right">Yield</Table.Th>
          <Table.Th ta="right">Price</Table.Th>
          <Table.Th ta="right">Quantum</Table.Th>
          <Table.Th ta="right">Quotes</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {levels.length === 0 ? (
          <Table.Tr>
            <Table.Td colSpan={5}>
              <Text size="xs" c="dimmed">
                No {side === 'bid' ? 'bids' : 'asks'}
              </Text>
            </Table.Td>
          </Table.Tr>
        ) : (
          levels.map((level, index) => (
            <Table.Tr key={`${level.price}-${level.yield}`}>
              <Table.Td>
                {index === 0 ? (
                  <Badge size="xs" color={side === 'bid' ? 'teal' : 'red'}>
                    Best
                  </Badge>
                ) : null}
              </Table.Td>
              <Table.Td ta="right" className={classes.mono}>
                {formatYield(level.yield)}
              </Table.Td>
              <Table.Td ta="right" className={classes.mono}>
                {formatPrice(level.price)}
              </Table.Td>
              <Table.Td ta="right" className={classes.mono}>
                {formatSize(level.quantum)}
              </Table.Td>
              <Table.Td ta="right" className={classes.mono}>
                {level.count}
              </Table.Td>
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
}

function DepthView({ bond, renderUpgrade }: { bond: DepthBond; renderUpgrade?: MarketDepthPanelProps['renderUpgrade'] }) {
  const depth = useDepth(bond.id);
  if (depth.isError) {
    if (statusOf(depth.error) === 402)
      return (
        <Alert color="yellow" variant="light" title="Market depth is a Premium feature" data-testid="depth-upgrade">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">Upgrade to the Premium plan to see the whole order book of a bond, level by level.</Text>
            {renderUpgrade ? renderUpgrade('/dart#market-depth') : null}
          </Stack>
        </Alert>
      );
    return (
      <Alert color="red" variant="light" title="Could not load the depth">
        {describeError(depth.error)}
      </Alert>
    );
  }
  const data = depth.data;
  if (!data) return <Loader size="sm" aria-label="Loading depth" />;
  if (data.restriction_text)
    return (
      <Alert color="yellow" variant="light" title="No trade access">
        {data.restriction_text}
      </Alert>
    );
  if (data.bids.length === 0 && data.asks.length === 0)
    return (
      <EmptyState
        size="sm"
        icon={<ChartIcon />}
        title="No open interest"
        description={`Nobody is bidding or offering ${bond.name} in the public market right now.`}
        data-testid="depth-empty"
      />
    );
  return (
    <Stack gap="xs" data-testid="depth-ladder">
      <Text size="xs" c="dimmed">
        {formatSizeWithCount(data.bid_quantum, data.face_value_per_bond)} bid in {data.bid_count}{' '}
        {data.bid_count === 1 ? 'quote' : 'quotes'} · {formatSizeWithCount(data.ask_quantum, data.face_value_per_bond)} offered in{' '}
        {data.ask_count} {data.ask_count === 1 ? 'quote' : 'quotes'}
      </Text>
      <div className={classes.depthGrid}>
        <Ladder side="bid" levels={data.bids} />
        <Ladder side="ask" levels={data.asks} />
      </div>
    </Stack>
  );
}

function InstrumentRow({ row, active, onSelect }: { row: MarketInstrument; active: boolean; onSelect: () => void }) {
  return (
    <UnstyledButton
      className={classes.listItem}
      data-active={active ? 'true' : undefined}
      onClick={onSelect}
      aria-pressed={active}
      aria-label={`Depth of ${row.display_name}`}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={active ? 700 : 500} truncate title={`${formatBondName(row.display_name)} · ${row.isin}`}>
          {formatBondName(row.display_name)}
        </Text>
        <Text size="xs" c="dimmed" className={classes.mono} style={{ whiteSpace: 'nowrap' }}>
          <Text span c="teal" inherit>
            {formatYield(row.best_bid?.yield)}
          </Text>
          {' / '}
          <Text span c="red" inherit>
            {formatYield(row.best_ask?.yield)}
          </Text>
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {row.isin} · {row.bid_count} bid{row.bid_count === 1 ? '' : 's'}, {row.ask_count} ask{row.ask_count === 1 ? '' : 's'}
      </Text>
    </UnstyledButton>
  );
}

/**
 * Instruments in the market (`GET api/trade/finstrument/`) and the depth (`GET api/quote/depth/`,
 * Premium) of the selected bond: bids and asks summed per price level, best first, no firm names.
 */
export function MarketDepthPanel({ selected, onSelect, renderUpgrade }: MarketDepthPanelProps) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const instruments = useInstruments({ page, page_size: INSTRUMENTS_PAGE_SIZE, search: debounced });
  const list = instruments.data;
  const pages = list ? Math.max(1, Math.ceil(list.count / INSTRUMENTS_PAGE_SIZE)) : 1;

  return (
    <MarketPanel
      id="market-depth"
      title={selected ? `Depth · ${selected.name}` : 'Market depth'}
      icon={<ChartIcon />}
      actions={instruments.isFetching ? <Loader size="xs" aria-label="Loading instruments" /> : null}
    >
      <div className={classes.depthLayout}>
        <Stack gap="xs" data-testid="market-instruments">
          <TextInput
            aria-label="Filter instruments in the market"
            placeholder="Bonds in the market"
            leftSection={<SearchIcon size={16} />}
            size="xs"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            disabled={Boolean(list?.restriction_text)}
          />
          {instruments.isError ? (
            <Text size="xs" c="red">
              {describeError(instruments.error)}
            </Text>
          ) : list?.restriction_text ? null : list && list.results.length === 0 ? (
            <Text size="xs" c="dimmed">
              {debounced ? 'No bond in the market matches.' : 'No bond has open public quotes yet.'}
            </Text>
          ) : (
            (list?.results ?? []).map((row) => (
              <InstrumentRow
                key={row.finstrument_id}
                row={row}
                active={selected?.id === row.finstrument_id}
                onSelect={() => {
                  // The instrument picked is also the bond B / S quote on.
                  selectedBond.select({ id: row.finstrument_id, label: row.display_name, isin: row.isin });
                  onSelect({ id: row.finstrument_id, name: row.display_name, isin: row.isin });
                }}
              />
            ))
          )}
          {pages > 1 ? (
            <Group justify="space-between" gap={4}>
              <Button size="compact-xs" variant="default" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Previous
              </Button>
              <Text size="xs">
                {page} / {pages}
              </Text>
              <Button size="compact-xs" variant="default" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                Next
              </Button>
            </Group>
          ) : null}
        </Stack>
        <div data-testid="market-depth">
          {selected ? (
            <DepthView bond={selected} renderUpgrade={renderUpgrade} />
          ) : (
            <EmptyState
              size="sm"
              icon={<ChartIcon />}
              title="Pick a bond"
              description="Select a bond in the list or a row of the public runs to see its depth."
            />
          )}
        </div>
      </div>
    </MarketPanel>
  );
}
