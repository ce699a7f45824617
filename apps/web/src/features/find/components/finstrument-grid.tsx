/** The Find results grid: AG Grid's infinite row model over `POST /api/finstruments/` (server paging and sort). Loaded lazily. */
import { formatIndianNumber, FINSTRUMENT_SORT_FIELDS, LIST_PAGE_SIZE_MAX } from '@dart/contracts';
import { useComputedColorScheme } from '@mantine/core';
import {
  CellStyleModule,
  colorSchemeDark,
  InfiniteRowModelModule,
  ModuleRegistry,
  RowSelectionModule,
  themeQuartz,
  type ColDef,
  type GridApi,
  type GridReadyEvent,
  type ICellRendererParams,
  type IDatasource,
  type SelectionChangedEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useEffect, useMemo, useRef } from 'react';
import { listFinstruments, type FinstrumentListRequest, type FinstrumentListRow } from '../api/list-finstruments';
import { formatBondName, formatDate } from '../../../lib/format';

ModuleRegistry.registerModules([InfiniteRowModelModule, RowSelectionModule, CellStyleModule]);

type SortField = (typeof FINSTRUMENT_SORT_FIELDS)[number];
const SORTABLE: Record<string, SortField> = {
  display_name: 'display_name',
  isin: 'isin',
  coupon_rate: 'coupon_rate',
  maturity_date: 'maturity_date',
  bond_yield: 'bond_yield',
  face_value: 'face_value',
  listing_date: 'listing_date',
};

const lightTheme = themeQuartz.withParams({ fontFamily: 'inherit', headerFontWeight: 600, accentColor: '#1c7ed6' });
const darkTheme = themeQuartz
  .withPart(colorSchemeDark)
  .withParams({ fontFamily: 'inherit', headerFontWeight: 600, accentColor: '#4dabf7' });

export interface FinstrumentGridProps {
  request: Omit<FinstrumentListRequest, 'pagination' | 'sort'>;
  onOpen: (row: FinstrumentListRow) => void;
  onSelectionChange: (rows: FinstrumentListRow[]) => void;
  onCount: (count: number | null) => void;
  /** The most rows the compare view takes. */
  maxSelected: number;
}

function NameCell(params: ICellRendererParams<FinstrumentListRow> & { onOpen: (row: FinstrumentListRow) => void }) {
  const row = params.data;
  if (!row) return <span aria-busy="true">Loading…</span>;
  return (
    <a
      href={`/security/${row.id}`}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        params.onOpen(row);
      }}
      style={{ color: 'inherit', fontWeight: 500 }}
    >
      <span title={formatBondName(row.label)}>{formatBondName(row.label)}</span>
    </a>
  );
}

/** A text cell that shows its whole value on hover (a narrow column never hides "SOVEREIGN" or an issuer). */
function TextCell(params: ICellRendererParams<FinstrumentListRow>) {
  const text = params.valueFormatted ?? (params.value === null || params.value === undefined ? '' : String(params.value));
  return <span title={text}>{text}</span>;
}

export function FinstrumentGrid({ request, onOpen, onSelectionChange, onCount, maxSelected }: FinstrumentGridProps) {
  const scheme = useComputedColorScheme('light');
  const apiRef = useRef<GridApi<FinstrumentListRow> | null>(null);
  const requestRef = useRef(request);
  requestRef.current = request;

  const columnDefs = useMemo<ColDef<FinstrumentListRow>[]>(
    () => [
      {
        colId: 'display_name',
        headerName: 'Bond',
        field: 'display_name',
        flex: 2,
        minWidth: 210,
        cellRenderer: NameCell,
        cellRendererParams: { onOpen },
      },
      { colId: 'isin', headerName: 'ISIN', valueGetter: (p) => p.data?.identifiers.ISIN, width: 145 },
      // At 1440 px every column is on screen and the usual values fit ("SOVEREIGN", "Bond/NCD", "NSE, BSE");
      // longer ones ("Certificate of Deposit", long issuers) show whole on hover.
      { colId: 'security_type', headerName: 'Type', field: 'security_type', width: 120, sortable: false, cellRenderer: TextCell },
      {
        colId: 'issuer_name',
        headerName: 'Issuer',
        field: 'issuer_name',
        flex: 1,
        minWidth: 150,
        sortable: false,
        cellRenderer: TextCell,
      },
      {
        colId: 'coupon_rate',
        headerName: 'Coupon %',
        field: 'coupon_rate',
        width: 115,
        type: 'rightAligned',
        valueFormatter: (p) => (p.value === null || p.value === undefined ? '—' : Number(p.value).toFixed(2)),
      },
      {
        colId: 'maturity_date',
        headerName: 'Maturity',
        valueGetter: (p) => p.data?.contract_parameters.maturity_date ?? null,
        valueFormatter: (p) => (p.value ? formatDate(String(p.value)) : '—'),
        width: 100,
      },
      {
        colId: 'credit_rating',
        headerName: 'Rating',
        field: 'credit_rating',
        width: 125,
        sortable: false,
        valueFormatter: (p) => p.value ?? '—',
        cellRenderer: TextCell,
      },
      {
        colId: 'bond_yield',
        headerName: 'Yield %',
        field: 'bond_yield',
        width: 100,
        type: 'rightAligned',
        valueFormatter: (p) => (p.value === null || p.value === undefined ? 'NA' : (Number(p.value) * 100).toFixed(4)),
      },
      {
        colId: 'face_value',
        headerName: 'Face value ₹',
        field: 'face_value',
        width: 140,
        type: 'rightAligned',
        valueFormatter: (p) => (p.value === null || p.value === undefined ? '—' : formatIndianNumber(Number(p.value), 0)),
      },
      {
        colId: 'exchanges',
        headerName: 'Listed on',
        sortable: false,
        width: 105,
        valueGetter: (p) => (p.data ? (p.data.contract_parameters.is_listed ? p.data.exchanges.join(', ') || 'Listed' : 'Unlisted') : ''),
      },
    ],
    [onOpen],
  );

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows: (params) => {
        const sortModel = params.sortModel[0];
        const sortField = sortModel ? SORTABLE[sortModel.colId] : undefined;
        const body: FinstrumentListRequest = {
          ...requestRef.current,
          pagination: { page: Math.floor(params.startRow / LIST_PAGE_SIZE_MAX) + 1, page_size: LIST_PAGE_SIZE_MAX },
          ...(sortField && sortModel ? { sort: { field: sortField, direction: sortModel.sort } } : {}),
        };
        listFinstruments(body)
          .then((list) => {
            onCount(list.count);
            params.successCallback(list.results, list.count);
          })
          .catch(() => {
            onCount(null);
            params.failCallback();
          });
      },
    }),
    // A new request (filters) is a new datasource: the grid drops its cache and starts at the top.
    // oxlint-disable-next-line react/exhaustive-deps
    [JSON.stringify(request), onCount],
  );

  useEffect(() => {
    apiRef.current?.setGridOption('datasource', datasource);
  }, [datasource]);

  return (
    <div style={{ height: 560, width: '100%' }} data-testid="find-grid">
      <AgGridReact<FinstrumentListRow>
        theme={scheme === 'dark' ? darkTheme : lightTheme}
        rowModelType="infinite"
        cacheBlockSize={LIST_PAGE_SIZE_MAX}
        maxBlocksInCache={20}
        datasource={datasource}
        columnDefs={columnDefs}
        defaultColDef={{ sortable: true, resizable: false, suppressMovable: true }}
        getRowId={(p) => String(p.data.id)}
        rowSelection={{ mode: 'multiRow', checkboxes: true, headerCheckbox: false, isRowSelectable: (node) => Boolean(node.data) }}
        onGridReady={(event: GridReadyEvent<FinstrumentListRow>) => {
          apiRef.current = event.api;
        }}
        onSelectionChanged={(event: SelectionChangedEvent<FinstrumentListRow>) => {
          const rows = event.api.getSelectedRows();
          if (rows.length > maxSelected) {
            const last = rows.at(-1);
            if (last) event.api.getRowNode(String(last.id))?.setSelected(false);
            return;
          }
          onSelectionChange(rows);
        }}
        overlayNoRowsTemplate="No bonds match these filters"
        rowHeight={38}
        headerHeight={40}
      />
    </div>
  );
}
