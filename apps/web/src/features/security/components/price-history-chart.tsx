/** Price and yield history (lightweight-charts; loaded lazily): daily means of the observations. */
import { useComputedColorScheme } from '@mantine/core';
import { createChart, LineSeries, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import type { TradeRow } from '../api/get-trades';

function dailyMeans(rows: TradeRow[], pick: (row: TradeRow) => number | null): { time: UTCTimestamp; value: number }[] {
  const byDate = new Map<string, number[]>();
  for (const row of rows) {
    const value = pick(row);
    if (value === null || !Number.isFinite(value)) continue;
    byDate.set(row.trade_date, [...(byDate.get(row.trade_date) ?? []), value]);
  }
  return [...byDate.entries()]
    .map(([date, values]) => ({
      time: (Date.parse(`${date}T00:00:00Z`) / 1000) as UTCTimestamp,
      value: values.reduce((a, b) => a + b, 0) / values.length,
    }))
    .sort((a, b) => a.time - b.time);
}

export function PriceHistoryChart({ rows }: { rows: TradeRow[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  useEffect(() => {
    if (!ref.current) return;
    const dark = scheme === 'dark';
    const chart = createChart(ref.current, {
      autoSize: true,
      layout: { background: { color: 'transparent' }, textColor: dark ? '#c9c9c9' : '#495057', attributionLogo: false },
      grid: { vertLines: { color: dark ? '#2c2e33' : '#f1f3f5' }, horzLines: { color: dark ? '#2c2e33' : '#f1f3f5' } },
      leftPriceScale: { visible: true },
      rightPriceScale: { visible: true },
      timeScale: { borderVisible: false },
    });
    const yields = dailyMeans(rows, (row) => (row.bond_yield === null ? null : row.bond_yield * 100));
    const prices = dailyMeans(rows, (row) => row.price);
    if (yields.length)
      chart
        .addSeries(LineSeries, {
          color: '#339af0',
          priceScaleId: 'right',
          title: 'Yield %',
          lineWidth: 2,
          priceFormat: { type: 'price', precision: 4, minMove: 0.0001 },
        })
        .setData(yields);
    if (prices.length)
      chart
        .addSeries(LineSeries, {
          color: '#f59f00',
          priceScaleId: 'left',
          title: 'Price',
          lineWidth: 2,
          priceFormat: { type: 'price', precision: 4, minMove: 0.0001 },
        })
        .setData(prices);
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [rows, scheme]);
  return <div ref={ref} style={{ width: '100%', height: 240 }} role="img" aria-label="Price (left axis) and yield (right axis) history" />;
}
