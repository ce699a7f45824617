/**
 * The transactions blotter grid: AG Grid over one page of the firm's orders and procurement orders (the server
 * filters and pages; the client-side row model keyed by order id replaces a changed row and flashes its cells).
 * Sorting is off: it would sort one page only. Arrow keys move; the focused row is the one the toolbar acts on.
 */
import { formatRupees, ORDER_KIND_LABELS, type Order } from '@dart/contracts';
import { Badge, Button, Group, Menu, Text, useComputedColorScheme } from '@mantine/core';
import {
  CellStyleModule,
  ClientSideRowModelModule,
  colorSchemeDark,
  HighlightChangesModule,
  ModuleRegistry,
  RowApiModule,
  themeQuartz,
  TooltipModule,
  type ColDef,
  type GetRowIdParams,
  type ICellRendererParams,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo } from 'react';
import { ChevronDownIcon } from '../../../components/ui/icons';
import { formatBondName, formatDate, formatPrice, formatSize, formatYield } from '../../../lib/format';
import {
  hasContractNote,
  KIND_SHORT_LABELS,
  ORDER_ACTION_LABELS,
  ORDER_STATE_COLORS,
  orderActions,
  settlementStatus,
  type OrderActionId,
} from '../utils/order-format';
import classes from './transactions.module.css';

// Every feature the grid's options use needs its module (AG Grid error #N names a missing one).
ModuleRegistry.registerModules([ClientSideRowModelModule, CellStyleModule, HighlightChangesModule, RowApiModule, TooltipModule]);

const params = { fontFamily: 'inherit', headerFontWeight: 600, rowHeight: 30, headerHeight: 32, cellHorizontalPadding: 8 };
const lightTheme = themeQuartz.withParams({ ...params, accentColor: '#1c7ed6' });
const darkTheme = themeQuartz.withPart(colorSchemeDark).withParams({ ...params, accentColor: '#4dabf7' });

export interface OrdersGridProps {
  rows: Order[];
  canTrade: boolean;
  onAction: (order: Order, action: OrderActionId) => void;
  onContractNote: (order: Order) => void;
  /** The row the keyboard (or a click) is on. */
  onFocusRow: (order: Order | null) => void;
  /** The rows are the previous answer while a new page or filter loads. */
  stale?: boolean;
}

function StateCell({ data }: ICellRendererParams<Order>) {
  if (!data) return null;
  return (
    <Badge size="sm" radius="sm" variant="light" tt="none" color={ORDER_STATE_COLORS[data.state]} className={classes.noShrink}>
      {data.state_label}
    </Badge>
  );
}

function SideCell({ data }: ICellRendererParams<Order>) {
  if (!data) return null;
  return (
    <Text span size="sm" fw={700} c={data.buy_or_sell === 'sell' ? 'red' : 'teal'}>
      {data.buy_or_sell === 'sell' ? 'Sell' : 'Buy'}
    </Text>
  );
}

function ReasonCell({ data }: ICellRendererParams<Order>) {
  if (!data?.reason) return null;
  const alarming = data.state === 'failed' || data.state === 'mismatch';
  return (
    <Text span size="sm" c={alarming ? 'red' : 'dimmed'} title={data.reason}>
      {data.reason}
    </Text>
  );
}

interface ActionParams extends ICellRendererParams<Order> {
  canTrade: boolean;
  onAction: (order: Order, action: OrderActionId) => void;
  onContractNote: (order: Order) => void;
}

/** Contract note for every trade not called off; for traders, the actions the order's state allows. */
function ActionsCell({ data, canTrade, onAction, onContractNote }: ActionParams) {
  if (!data) return null;
  const actions = canTrade ? orderActions(data) : [];
  return (
    <Group gap={4} wrap="nowrap">
      {hasContractNote(data) ? (
        <Button
          size="compact-xs"
          variant="subtle"
          tabIndex={-1}
          onClick={() => onContractNote(data)}
          aria-label={`Contract note of ${data.number}`}
        >
          Contract note
        </Button>
      ) : null}
      {actions.length > 0 ? (
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <Button
              size="compact-xs"
              variant="light"
              tabIndex={-1}
              rightSection={<ChevronDownIcon size={12} />}
              aria-label={`Actions on ${data.number}`}
            >
              Actions
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {actions.map((action) => (
              <Menu.Item
                key={action}
                color={action === 'accept' || action === 'settle' ? undefined : 'red'}
                onClick={() => onAction(data, action)}
              >
                {ORDER_ACTION_LABELS[action]}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      ) : null}
    </Group>
  );
}

const numberCell = { type: 'rightAligned', cellClass: classes.numberCell, enableCellChangeFlash: true } as const;

export function OrdersGrid({ rows, canTrade, onAction, onContractNote, onFocusRow, stale = false }: OrdersGridProps) {
  const scheme = useComputedColorScheme('light');
  const columnDefs = useMemo<ColDef<Order>[]>(
    () => [
      { colId: 'number', headerName: 'Number', field: 'number', width: 118, pinned: 'left', cellClass: classes.numberCell },
      {
        colId: 'kind',
        headerName: 'Kind',
        width: 112,
        valueGetter: (p) => (p.data ? KIND_SHORT_LABELS[p.data.kind] : ''),
        tooltipValueGetter: (p) => (p.data ? ORDER_KIND_LABELS[p.data.kind] : null),
      },
      {
        colId: 'state',
        headerName: 'State',
        field: 'state',
        width: 142,
        cellRenderer: StateCell,
        enableCellChangeFlash: true,
        tooltipValueGetter: (p) => (p.data ? settlementStatus(p.data) : null),
      },
      {
        colId: 'bond',
        headerName: 'Bond',
        flex: 1,
        minWidth: 190,
        valueGetter: (p) => (p.data ? formatBondName(p.data.bond_name) : ''),
        tooltipValueGetter: (p) => (p.data ? `${formatBondName(p.data.bond_name)} · ${p.data.isin}` : null),
      },
      { colId: 'isin', headerName: 'ISIN', field: 'isin', width: 128, cellClass: classes.numberCell },
      { colId: 'side', headerName: 'Side', width: 64, cellRenderer: SideCell, valueGetter: (p) => p.data?.buy_or_sell ?? '' },
      { colId: 'counterparty', headerName: 'Counterparty', field: 'counterparty_name', width: 150, tooltipField: 'counterparty_name' },
      {
        colId: 'quantum',
        headerName: 'Face value',
        field: 'quantum',
        width: 104,
        valueFormatter: (p) => formatSize(p.value as number),
        ...numberCell,
      },
      {
        colId: 'price',
        headerName: 'Price',
        field: 'price',
        width: 94,
        valueFormatter: (p) => formatPrice(p.value as number),
        ...numberCell,
      },
      {
        colId: 'yield',
        headerName: 'Yield',
        field: 'yield',
        width: 94,
        valueFormatter: (p) => formatYield(p.value as number),
        ...numberCell,
      },
      {
        colId: 'consideration',
        headerName: 'Consideration',
        width: 150,
        valueGetter: (p) => p.data?.consideration.consideration ?? null,
        valueFormatter: (p) => (typeof p.value === 'number' ? formatRupees(p.value) : '—'),
        tooltipValueGetter: (p) =>
          p.data
            ? `Principal ${formatRupees(p.data.consideration.principal)} + accrued ${formatRupees(p.data.consideration.accrued_interest)} (${p.data.consideration.accrued_days} days); buyer pays ${formatRupees(p.data.consideration.buyer_pays)} with stamp duty`
            : null,
        ...numberCell,
      },
      {
        colId: 'trade_date',
        headerName: 'Trade date',
        field: 'trade_date',
        width: 100,
        valueFormatter: (p) => formatDate(String(p.value)),
      },
      {
        colId: 'settlement_date',
        headerName: 'Settles',
        field: 'settlement_date',
        width: 100,
        valueFormatter: (p) => formatDate(String(p.value)),
      },
      {
        colId: 'exchange',
        headerName: 'Exchange',
        width: 116,
        valueGetter: (p) => (p.data ? `${p.data.exchange} · ${p.data.clearing_corporation}` : ''),
        headerTooltip: 'Exchange reported on · clearing corporation settling it',
      },
      {
        colId: 'exchange_trade_id',
        headerName: 'Exchange trade id',
        field: 'exchange_trade_id',
        width: 150,
        valueFormatter: (p) => (p.value as string | null) ?? '—',
        cellClass: classes.numberCell,
      },
      { colId: 'reason', headerName: 'Reason', field: 'reason', width: 220, cellRenderer: ReasonCell },
      {
        colId: 'actions',
        headerName: '',
        width: canTrade ? 196 : 116,
        pinned: 'right',
        cellRenderer: ActionsCell,
        cellRendererParams: { canTrade, onAction, onContractNote },
      },
    ],
    [canTrade, onAction, onContractNote],
  );

  return (
    <div className={classes.grid} data-stale={stale ? 'true' : undefined} data-testid="grid-transactions">
      <AgGridReact<Order>
        theme={scheme === 'dark' ? darkTheme : lightTheme}
        rowData={rows}
        columnDefs={columnDefs}
        defaultColDef={{ sortable: false, resizable: true, suppressHeaderMenuButton: true }}
        getRowId={(p: GetRowIdParams<Order>) => p.data.id}
        // Every column stays in the page, so the keyboard and screen readers reach the reason and the actions.
        suppressColumnVirtualisation
        onCellFocused={(event) => {
          const node =
            event.rowIndex === null || event.rowIndex === undefined ? undefined : event.api.getDisplayedRowAtIndex(event.rowIndex);
          onFocusRow(node?.data ?? null);
        }}
        onRowClicked={(event) => onFocusRow(event.data ?? null)}
        overlayNoRowsTemplate="<span></span>"
        cellFlashDuration={900}
        cellFadeDuration={600}
        tooltipShowDelay={400}
      />
    </div>
  );
}
