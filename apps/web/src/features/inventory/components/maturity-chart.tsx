/** The book's maturity profile: market value per maturity bucket (ECharts, tree-shaken; loaded lazily). */
import { formatRupeesCompact, type Inventory } from '@dart/contracts';
import { useComputedColorScheme } from '@mantine/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

type Row = Inventory['breakdowns']['maturity_bucket'][number];

export function MaturityChart({ rows }: { rows: Row[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current, scheme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
    chart.setOption({
      backgroundColor: 'transparent',
      tooltip: { trigger: 'axis', valueFormatter: (value: unknown) => formatRupeesCompact(Number(value)) },
      grid: { left: 8, right: 8, top: 12, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: rows.map((row) => row.key) },
      yAxis: { type: 'value', axisLabel: { formatter: (value: number) => formatRupeesCompact(value) } },
      series: [
        {
          name: 'Market value',
          type: 'bar',
          data: rows.map((row) => row.market_value),
          itemStyle: { color: scheme === 'dark' ? '#4dabf7' : '#1c7ed6' },
          barMaxWidth: 48,
        },
      ],
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [rows, scheme]);
  const summary = rows.map((row) => `${row.key}: ${formatRupeesCompact(row.market_value)}`).join('; ');
  return <div ref={ref} style={{ width: '100%', height: 200 }} role="img" aria-label={`Maturity profile by market value. ${summary}`} />;
}
