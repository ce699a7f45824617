/** Bar chart of a cash-flow schedule (ECharts, tree-shaken; loaded lazily). */
import { formatRupeesCompact } from '@dart/contracts';
import { useComputedColorScheme } from '@mantine/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { CashflowSchedule } from '../api/get-cashflows';
import { formatDate } from '../../../lib/format';

echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export function CashflowChart({ schedule }: { schedule: CashflowSchedule }) {
  const ref = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current, scheme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
    chart.setOption({
      backgroundColor: 'transparent',
      tooltip: { trigger: 'axis', valueFormatter: (value: unknown) => formatRupeesCompact(Number(value)) },
      legend: { top: 0 },
      grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: schedule.cashflows.map((flow) => formatDate(flow.payment_date)) },
      yAxis: { type: 'value', axisLabel: { formatter: (value: number) => formatRupeesCompact(value) } },
      series: [
        {
          name: 'Interest',
          type: 'bar',
          stack: 'flow',
          data: schedule.cashflows.map((flow) => flow.interest),
          itemStyle: { color: '#339af0' },
        },
        {
          name: 'Principal',
          type: 'bar',
          stack: 'flow',
          data: schedule.cashflows.map((flow) => flow.principal),
          itemStyle: { color: '#20c997' },
        },
      ],
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [schedule, scheme]);
  return (
    <div ref={ref} style={{ width: '100%', height: 260 }} role="img" aria-label="Cash flows by payment date: interest and principal" />
  );
}
