/**
 * The runs blotter grid: AG Grid over a page of quotes (client-side row model keyed by quote id),
 * so a live update replaces one row and the changed cells flash briefly. Keyboard: arrows move,
 * Enter opens the focused quote (counter, or your own quote's negotiations), Delete closes your own.
 * Your own open quotes can be ticked (checkbox column) for "Close selected"; the Ends column counts
 * down to each quote's validity end every second (red in the last minute, then Expired).
 */
import type { Quote } from '@dart/contracts';
import { Badge, Button, Group, Text, Tooltip, useComputedColorScheme } from '@mantine/core';
import {
  CellStyleModule,
  ClientSideRowModelModule,
  colorSchemeDark,
  HighlightChangesModule,
  ModuleRegistry,
  RenderApiModule,
  RowApiModule,
  RowSelectionModule,
  RowStyleModule,
  themeQuartz,
  TooltipModule,
  type CellKeyDownEvent,
  type ColDef,
  type GetRowIdParams,
  type GridApi,
  type GridReadyEvent,
  type ICellRendererParams,
  type RowClassRules,
  type RowSelectionOptions,
  type SelectionChangedEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useEffect, useMemo, useRef } from 'react';
import { useHotkey } from '../../../lib/hotkeys';
import { useTicketHotkeys } from '../hooks/use-ticket-hotkeys';
import { selectedBond } from '../stores/selected-bond';
import { formatBonds, formatPrice, formatSize, formatYield, QUOTE_STATUS_LABELS } from '../utils/market-format';
import { formatBondName } from '../../../lib/format';
import { Countdown } from './countdown';
import classes from './market.module.css';

// Every feature the grid's options use needs its module (AG Grid error #N names a missing one):
// TooltipModule for the columns' headerTooltip.
ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  HighlightChangesModule,
  CellStyleModule,
  RowStyleModule,
  RowApiModule,
  RenderApiModule,
  RowSelectionModule,
  TooltipModule,
]);

const lightTheme = themeQuartz.withParams({
  fontFamily: 'inherit',
  headerFontWeight: 600,
  accentColor: '#1c7ed6',
  rowHeight: 28,
  headerHeight: 30,
  cellHorizontalPadding: 8,
});
const darkTheme = themeQuartz.withPart(colorSchemeDark).withParams({
  fontFamily: 'inherit',
  headerFontWeight: 600,
  accentColor: '#4dabf7',
  rowHeight: 28,
  headerHeight: 30,
  cellHorizontalPadding: 8,
});

export interface RunsGridProps {
  rows: Quote[];
  /** Accessible name of the grid. */
  label: string;
  onOpen: (quote: Quote) => void;
  onClose: (quote: Quote) => void;
  canTrade: boolean;
  /** Pixels, or 'fill': the rest of a `fill` MarketPanel's body. */
  height?: number | 'fill';
  /** Show the sender column (private runs name the sending firm). */
  showSender?: boolean;
  /** Change (update / replace) one of your own open quotes. */
  onEdit?: (quote: Quote) => void;
  /** Tick boxes on your own open quotes; called with the ticked quotes. */
  onSelectionChange?: (quotes: Quote[]) => void;
  /** A row was clicked or focused (e.g. to show its bond's depth). */
  onPick?: (quote: Quote) => void;
}

interface ActionParams extends ICellRendererParams<Quote> {
  onOpen: (quote: Quote) => void;
  onClose: (quote: Quote) => void;
  onEdit?: (quote: Quote) => void;
  canTrade: boolean;
}

function EndsCell({ data }: ICellRendererParams<Quote>) {
  if (!data) return null;
  if (data.status !== 'open')
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  return <Countdown until={data.expiry_date_stored} />;
}

const isOwnOpen = (quote: Quote | undefined) => Boolean(quote?.is_mine && quote.status === 'open');

/** A row picked by click or keyboard focus selects its bond for `B` / `S` (the quote ticket). */
const selectBondOf = (quote: Quote) => selectedBond.select({ id: quote.finstrument_id, label: quote.display_name, isin: quote.isin });

function SideCell({ data }: ICellRendererParams<Quote>) {
  if (!data) return null;
  return (
    <Text span fw={700} size="sm" c={data.quote_type === 'BID' ? 'teal' : 'red'}>
      {data.quote_type === 'BID' ? 'Bid' : 'Ask'}
    </Text>
  );
}

function BondCell({ data }: ICellRendererParams<Quote>) {
  if (!data) return null;
  return <span title={`${formatBondName(data.display_name)} · ${data.isin}`}>{formatBondName(data.display_name)}</span>;
}

function StatusCell({ data }: ICellRendererParams<Quote>) {
  if (!data) return null;
  const status = QUOTE_STATUS_LABELS[data.status];
  return (
    <Tooltip label={status.description}>
      <Badge variant={data.status === 'open' ? 'dot' : 'filled'} color={status.color} radius="sm" size="sm">
        {status.label}
      </Badge>
    </Tooltip>
  );
}

function ActionCell({ data, onOpen, onClose, onEdit, canTrade }: ActionParams) {
  if (!data || !canTrade || data.status !== 'open') return null;
  const name = `${data.quote_type === 'BID' ? 'bid' : 'ask'} on ${data.display_name}`;
  return data.is_mine ? (
    <Group gap={4} wrap="nowrap">
      <Button size="compact-xs" variant="subtle" onClick={() => onOpen(data)} aria-label={`Negotiations on your ${name}`} tabIndex={-1}>
        View
      </Button>
      {onEdit ? (
        <Button size="compact-xs" variant="subtle" onClick={() => onEdit(data)} aria-label={`Change your ${name}`} tabIndex={-1}>
          Edit
        </Button>
      ) : null}
      <Button size="compact-xs" variant="subtle" color="red" onClick={() => onClose(data)} aria-label={`Close your ${name}`} tabIndex={-1}>
        Close
      </Button>
    </Group>
  ) : (
    <Button size="compact-xs" variant="light" onClick={() => onOpen(data)} aria-label={`Counter the ${name}`} tabIndex={-1}>
      Counter
    </Button>
  );
}

const rowClassRules: RowClassRules<Quote> = {
  [classes.inactiveRow!]: (params) => Boolean(params.data && params.data.status !== 'open'),
  [classes.mineRow!]: (params) => Boolean(params.data?.is_mine),
};

export function RunsGrid({
  rows,
  label,
  onOpen,
  onClose,
  canTrade,
  height = 360,
  showSender = false,
  onEdit,
  onSelectionChange,
  onPick,
}: RunsGridProps) {
  const scheme = useComputedColorScheme('light');
  const apiRef = useRef<GridApi<Quote> | null>(null);
  const knownIds = useRef<Set<string> | null>(null);
  // The blotters' keys, listed in the cheat sheet while a blotter is on screen (AG Grid handles the arrows).
  useTicketHotkeys(canTrade);
  useHotkey({
    id: 'grid-move',
    keys: ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'],
    label: 'Move between rows and cells',
    scope: 'Blotters',
  });
  useHotkey({ id: 'grid-enter', keys: ['Enter'], label: 'Counter the quote (your own: its negotiations)', scope: 'Blotters' }, canTrade);
  useHotkey({ id: 'grid-delete', keys: ['Delete'], label: 'Close your own quote', scope: 'Blotters' }, canTrade);

  const columnDefs = useMemo<ColDef<Quote>[]>(
    () => [
      { colId: 'side', headerName: 'Side', field: 'quote_type', width: 62, cellRenderer: SideCell },
      {
        colId: 'bond',
        headerName: 'Bond',
        field: 'display_name',
        flex: 1,
        minWidth: 170,
        cellRenderer: BondCell,
      },
      {
        colId: 'yield',
        headerName: 'Yield',
        field: 'yield_stored',
        width: 96,
        type: 'rightAligned',
        enableCellChangeFlash: true,
        valueFormatter: (p) => formatYield(p.value as number),
        cellClass: classes.numberCell,
      },
      {
        colId: 'price',
        headerName: 'Price',
        field: 'unit_price_stored',
        width: 92,
        type: 'rightAligned',
        enableCellChangeFlash: true,
        valueFormatter: (p) => formatPrice(p.value as number),
        cellClass: classes.numberCell,
      },
      {
        colId: 'quantum',
        headerName: 'Size',
        field: 'remaining_quantum',
        width: 104,
        type: 'rightAligned',
        enableCellChangeFlash: true,
        headerTooltip: 'Face value still available (of the quoted size); hover a size for its number of bonds',
        valueFormatter: (p) => formatSize(p.value as number),
        tooltipValueGetter: (p) => formatBonds(p.value as number, p.data?.face_value_per_bond) || null,
        cellClass: classes.numberCell,
      },
      {
        colId: 'settlement',
        headerName: 'Settles',
        width: 78,
        valueGetter: (p) => (p.data ? (p.data.settlement_delta === null ? p.data.settlement_date : `T+${p.data.settlement_delta}`) : ''),
        headerTooltip: 'Settlement',
      },
      {
        colId: 'from',
        headerName: showSender ? 'From' : 'Firm',
        width: 108,
        valueGetter: (p) => (p.data ? (p.data.is_mine ? 'You' : (p.data.client_name ?? 'Anonymous')) : ''),
      },
      { colId: 'status', headerName: 'Status', field: 'status', width: 96, cellRenderer: StatusCell, enableCellChangeFlash: true },
      {
        colId: 'ends',
        headerName: 'Ends in',
        width: 96,
        headerTooltip: 'Time left to the end of the validity',
        valueGetter: (p) => p.data?.expiry_date_stored ?? '',
        cellRenderer: EndsCell,
      },
      {
        colId: 'actions',
        headerName: '',
        width: onEdit ? 164 : 124,
        sortable: false,
        cellRenderer: ActionCell,
        cellRendererParams: { onOpen, onClose, onEdit, canTrade },
      },
    ],
    [onOpen, onClose, onEdit, canTrade, showSender],
  );

  const rowSelection = useMemo<RowSelectionOptions<Quote> | undefined>(
    () =>
      onSelectionChange && canTrade
        ? {
            mode: 'multiRow',
            checkboxes: true,
            headerCheckbox: false,
            hideDisabledCheckboxes: true,
            enableClickSelection: false,
            isRowSelectable: (node) => isOwnOpen(node.data),
          }
        : undefined,
    [onSelectionChange, canTrade],
  );

  // New rows (not seen before) flash too, so a quote arriving live is noticed.
  useEffect(() => {
    const api = apiRef.current;
    const ids = new Set(rows.map((row) => row.id));
    const previous = knownIds.current;
    knownIds.current = ids;
    if (!api || !previous) return;
    const added = rows.filter((row) => !previous.has(row.id)).map((row) => row.id);
    if (added.length === 0) return;
    const handle = window.setTimeout(() => {
      const nodes = added.map((id) => api.getRowNode(id)).filter((node) => node !== undefined);
      if (nodes.length > 0) api.flashCells({ rowNodes: nodes });
    }, 0);
    return () => window.clearTimeout(handle);
  }, [rows]);

  const onCellKeyDown = (event: CellKeyDownEvent<Quote>) => {
    const key = (event.event as KeyboardEvent | null)?.key;
    const quote = event.data;
    if (!quote || !canTrade || quote.status !== 'open') return;
    if (key === 'Enter') onOpen(quote);
    else if (key === 'Delete' && quote.is_mine) onClose(quote);
  };

  return (
    <div
      className={height === 'fill' ? `${classes.grid} ${classes.fillGrid}` : classes.grid}
      style={height === 'fill' ? undefined : { height }}
      data-testid={`grid-${label.toLowerCase().replaceAll(' ', '-')}`}
    >
      <AgGridReact<Quote>
        theme={scheme === 'dark' ? darkTheme : lightTheme}
        rowData={rows}
        columnDefs={columnDefs}
        defaultColDef={{ sortable: true, resizable: true, suppressHeaderMenuButton: true }}
        getRowId={(params: GetRowIdParams<Quote>) => params.data.id}
        // Every column stays in the page in a narrow dock panel, so the keyboard, screen readers and a
        // horizontal scroll reach Firm, Ends in and the row's buttons (a blotter has ten columns).
        suppressColumnVirtualisation
        rowClassRules={rowClassRules}
        onGridReady={(event: GridReadyEvent<Quote>) => {
          apiRef.current = event.api;
          knownIds.current = new Set(rows.map((row) => row.id));
        }}
        onCellKeyDown={onCellKeyDown}
        rowSelection={rowSelection}
        onSelectionChanged={(event: SelectionChangedEvent<Quote>) =>
          onSelectionChange?.(event.api.getSelectedRows().filter((quote) => isOwnOpen(quote)))
        }
        onRowClicked={(event) => {
          if (!event.data) return;
          selectBondOf(event.data);
          onPick?.(event.data);
        }}
        onCellFocused={(event) => {
          const node =
            event.rowIndex === null || event.rowIndex === undefined ? undefined : event.api.getDisplayedRowAtIndex(event.rowIndex);
          if (!node?.data) return;
          selectBondOf(node.data);
          onPick?.(node.data);
        }}
        onRowDoubleClicked={(event) => event.data && canTrade && event.data.status === 'open' && onOpen(event.data)}
        suppressCellFocus={false}
        overlayNoRowsTemplate="<span></span>"
        cellFlashDuration={900}
        cellFadeDuration={600}
      />
    </div>
  );
}
