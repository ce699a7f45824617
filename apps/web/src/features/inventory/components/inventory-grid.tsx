/**
 * The book: AG Grid over the firm's holdings (client-side rows; the grouping and its subtotals are built in
 * utils/book-rows.ts), the totals row pinned at the bottom, P&L in colour with its sign, the valuation source and
 * its age per row. Arrow keys move between cells; the focused holding is the one the toolbar acts on.
 */
import { type Position } from '@dart/contracts';
import { Button, Group, Menu, Text, UnstyledButton, useComputedColorScheme } from '@mantine/core';
import {
  CellStyleModule,
  ClientSideRowModelModule,
  colorSchemeDark,
  ModuleRegistry,
  PinnedRowModule,
  RowApiModule,
  RowStyleModule,
  themeQuartz,
  TooltipModule,
  type ColDef,
  type GetRowIdParams,
  type ICellRendererParams,
  type RowClassParams,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo } from 'react';
import { ChevronDownIcon } from '../../../components/ui/icons';
import { formatBondName, formatDate, formatPrice, formatSize, formatYield } from '../../../lib/format';
import { formatPnl, money, pnlTone, shortSource, valuationSourceText, type BookRow, type Subtotals } from '../utils/book-rows';
import classes from './inventory.module.css';

ModuleRegistry.registerModules([ClientSideRowModelModule, CellStyleModule, PinnedRowModule, RowApiModule, RowStyleModule, TooltipModule]);

const ROW_HEIGHT = 30;
const HEADER_HEIGHT = 32;
/** Borders and the horizontal scrollbar the wide book has on a laptop screen. */
const SCROLLBAR_ALLOWANCE = 22;
const params = {
  fontFamily: 'inherit',
  headerFontWeight: 600,
  rowHeight: ROW_HEIGHT,
  headerHeight: HEADER_HEIGHT,
  cellHorizontalPadding: 8,
};
const lightTheme = themeQuartz.withParams({ ...params, accentColor: '#1c7ed6' });
const darkTheme = themeQuartz.withPart(colorSchemeDark).withParams({ ...params, accentColor: '#4dabf7' });

export type HoldingAction = 'edit_cost' | 'offer' | 'sell';

export interface InventoryGridProps {
  rows: BookRow[];
  total: BookRow | null;
  canWrite: boolean;
  canTrade: boolean;
  onAction: (position: Position, action: HoldingAction) => void;
  onToggleGroup: (key: string) => void;
  onFocusRow: (position: Position | null) => void;
  stale?: boolean;
}

const positionOf = (row: BookRow | undefined) => (row?.kind === 'position' ? row.position : null);
const totalsOf = (row: BookRow | undefined): Subtotals | null => (row && row.kind !== 'position' ? row.totals : null);

function BondCell({ data, onToggleGroup }: ICellRendererParams<BookRow> & { onToggleGroup: (key: string) => void }) {
  if (!data) return null;
  if (data.kind === 'group')
    return (
      <UnstyledButton
        onClick={() => onToggleGroup(data.label)}
        aria-expanded={!data.collapsed}
        aria-label={`${data.collapsed ? 'Show' : 'Hide'} the holdings of ${data.label}`}
        tabIndex={-1}
      >
        <Group gap={6} wrap="nowrap">
          <ChevronDownIcon size={12} style={{ transform: data.collapsed ? 'rotate(-90deg)' : undefined }} />
          <Text span size="sm" fw={600}>
            {data.label}
          </Text>
          <Text span size="xs" c="dimmed">
            {data.totals.positions}
          </Text>
        </Group>
      </UnstyledButton>
    );
  if (data.kind === 'total')
    return (
      <Text span size="sm" fw={700}>
        {data.label}
      </Text>
    );
  return (
    <Text span size="sm" className={data.depth ? classes.indent : undefined}>
      {formatBondName(data.position.display_name)}
    </Text>
  );
}

function PnlCell({ value }: ICellRendererParams<BookRow, number | null>) {
  const tone = pnlTone(value);
  const words = tone === 'gain' ? 'gain' : tone === 'loss' ? 'loss' : 'no change';
  return (
    <span className={tone === 'flat' ? undefined : classes[tone]} aria-label={`${formatPnl(value)} (${words})`}>
      {formatPnl(value)}
    </span>
  );
}

interface ActionParams extends ICellRendererParams<BookRow> {
  canWrite: boolean;
  canTrade: boolean;
  onAction: (position: Position, action: HoldingAction) => void;
}

function ActionsCell({ data, canWrite, canTrade, onAction }: ActionParams) {
  const position = positionOf(data);
  if (!position || !canWrite) return null;
  const name = `${position.display_name} (${position.account})`;
  return (
    <Group gap={4} wrap="nowrap">
      {canTrade ? (
        <Button size="compact-xs" variant="light" tabIndex={-1} onClick={() => onAction(position, 'offer')} aria-label={`Offer ${name}`}>
          Offer
        </Button>
      ) : null}
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <Button
            size="compact-xs"
            variant="subtle"
            tabIndex={-1}
            rightSection={<ChevronDownIcon size={12} />}
            aria-label={`More actions on ${name}`}
          >
            More
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => onAction(position, 'edit_cost')}>Edit valuation cost</Menu.Item>
          <Menu.Item onClick={() => onAction(position, 'sell')}>Record external trade</Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

const AUTO_HEIGHT_ROWS = 20;
const numberCell = { type: 'rightAligned', cellClass: classes.numberCell } as const;

export function InventoryGrid({ rows, total, canWrite, canTrade, onAction, onToggleGroup, onFocusRow, stale = false }: InventoryGridProps) {
  const scheme = useComputedColorScheme('light');
  // A small book takes the height of its rows; a large one scrolls inside the window's height.
  const autoHeight = rows.length <= AUTO_HEIGHT_ROWS;
  const columnDefs = useMemo<ColDef<BookRow>[]>(
    () => [
      {
        colId: 'bond',
        headerName: 'Bond',
        pinned: 'left',
        width: 240,
        cellRenderer: BondCell,
        cellRendererParams: { onToggleGroup },
        valueGetter: (p) => (p.data?.kind === 'position' ? p.data.position.display_name : (p.data?.label ?? '')),
        tooltipValueGetter: (p) => {
          const position = positionOf(p.data);
          return position ? `${formatBondName(position.display_name)} · ${position.isin}` : null;
        },
      },
      { colId: 'isin', headerName: 'ISIN', width: 126, cellClass: classes.numberCell, valueGetter: (p) => positionOf(p.data)?.isin ?? '' },
      { colId: 'account', headerName: 'Account', width: 100, valueGetter: (p) => positionOf(p.data)?.account ?? '' },
      {
        colId: 'face_value',
        headerName: 'Face value',
        width: 108,
        valueGetter: (p) => positionOf(p.data)?.face_value ?? totalsOf(p.data)?.face_value ?? null,
        valueFormatter: (p) => formatSize(p.value as number | null),
        ...numberCell,
      },
      {
        colId: 'average_cost',
        headerName: 'Avg cost',
        headerTooltip: 'Weighted-average cost, clean per ₹100 (the valuation cost)',
        width: 96,
        valueGetter: (p) => positionOf(p.data)?.average_cost ?? null,
        valueFormatter: (p) => (p.value === null ? '' : formatPrice(p.value as number)),
        ...numberCell,
      },
      {
        colId: 'price',
        headerName: 'Valuation',
        headerTooltip: 'Clean price per ₹100 at the valuation yield',
        width: 96,
        valueGetter: (p) => positionOf(p.data)?.valuation.clean_price ?? null,
        valueFormatter: (p) => (positionOf(p.data) ? formatPrice(p.value as number | null) : ''),
        ...numberCell,
      },
      {
        colId: 'market_value',
        headerName: 'Market value',
        width: 126,
        valueGetter: (p) => positionOf(p.data)?.market_value ?? totalsOf(p.data)?.market_value ?? null,
        valueFormatter: (p) => money(p.value as number | null),
        ...numberCell,
      },
      {
        colId: 'pnl',
        headerName: 'Unrealised P&L',
        width: 138,
        valueGetter: (p) => positionOf(p.data)?.unrealised_pnl ?? totalsOf(p.data)?.unrealised_pnl ?? null,
        cellRenderer: PnlCell,
        ...numberCell,
      },
      {
        colId: 'source',
        headerName: 'Source · age',
        width: 150,
        valueGetter: (p) => {
          const position = positionOf(p.data);
          if (!position) return '';
          const age = position.valuation.age_days;
          return age === null ? shortSource(position) : `${shortSource(position)} · ${age}d`;
        },
        tooltipValueGetter: (p) => {
          const position = positionOf(p.data);
          return position ? valuationSourceText(position) : null;
        },
      },
      {
        colId: 'accrued',
        headerName: 'Accrued',
        width: 104,
        valueGetter: (p) => positionOf(p.data)?.accrued_interest ?? totalsOf(p.data)?.accrued_interest ?? null,
        valueFormatter: (p) => money(p.value as number | null),
        ...numberCell,
      },
      {
        colId: 'yield',
        headerName: 'Yield',
        width: 90,
        valueGetter: (p) => positionOf(p.data)?.valuation.bond_yield ?? null,
        valueFormatter: (p) => (positionOf(p.data) ? formatYield(p.value as number | null) : ''),
        ...numberCell,
      },
      {
        colId: 'duration',
        headerName: 'Mod. dur.',
        headerTooltip: 'Modified duration (years)',
        width: 84,
        valueGetter: (p) => positionOf(p.data)?.modified_duration ?? null,
        valueFormatter: (p) => (typeof p.value === 'number' ? p.value.toFixed(2) : positionOf(p.data) ? '—' : ''),
        ...numberCell,
      },
      {
        colId: 'pv01',
        headerName: 'PV01',
        headerTooltip: '₹ fall in value for a 1 bp rise in yield',
        width: 96,
        valueGetter: (p) => positionOf(p.data)?.pv01 ?? totalsOf(p.data)?.pv01 ?? null,
        valueFormatter: (p) => money(p.value as number | null),
        ...numberCell,
      },
      {
        colId: 'rating',
        headerName: 'Rating',
        width: 110,
        valueGetter: (p) => positionOf(p.data)?.rating ?? (positionOf(p.data) ? 'Unrated' : ''),
      },
      {
        colId: 'maturity',
        headerName: 'Maturity',
        width: 100,
        valueGetter: (p) => positionOf(p.data)?.maturity_date ?? null,
        valueFormatter: (p) => (p.value ? formatDate(String(p.value)) : ''),
      },
      {
        colId: 'actions',
        headerName: '',
        pinned: 'right',
        width: canWrite ? (canTrade ? 138 : 80) : 40,
        cellRenderer: ActionsCell,
        cellRendererParams: { canWrite, canTrade, onAction },
      },
    ],
    [canWrite, canTrade, onAction, onToggleGroup],
  );

  return (
    <div
      className={classes.grid}
      data-stale={stale ? 'true' : undefined}
      style={autoHeight ? { height: HEADER_HEIGHT + (rows.length + (total ? 1 : 0)) * ROW_HEIGHT + SCROLLBAR_ALLOWANCE } : undefined}
      data-testid="grid-inventory"
    >
      <AgGridReact<BookRow>
        theme={scheme === 'dark' ? darkTheme : lightTheme}
        rowData={rows}
        pinnedBottomRowData={total ? [total] : []}
        columnDefs={columnDefs}
        defaultColDef={{ sortable: false, resizable: true, suppressHeaderMenuButton: true }}
        getRowId={(p: GetRowIdParams<BookRow>) => p.data.id}
        getRowClass={(p: RowClassParams<BookRow>) =>
          p.data?.kind === 'group' ? classes.groupRow : p.data?.kind === 'total' ? classes.totalRow : undefined
        }
        suppressColumnVirtualisation
        onCellFocused={(event) => {
          const node =
            event.rowIndex === null || event.rowIndex === undefined || event.rowPinned
              ? undefined
              : event.api.getDisplayedRowAtIndex(event.rowIndex);
          onFocusRow(positionOf(node?.data));
        }}
        onRowClicked={(event) => onFocusRow(positionOf(event.data))}
        onCellKeyDown={(event) => {
          // Enter on a group row opens or closes it.
          const key = (event.event as KeyboardEvent | null)?.key;
          if (key === 'Enter' && event.data?.kind === 'group') onToggleGroup(event.data.label);
        }}
        overlayNoRowsTemplate="<span></span>"
        tooltipShowDelay={400}
      />
    </div>
  );
}
