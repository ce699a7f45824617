import { MATURITY_BUCKETS, type Inventory } from '@dart/contracts';
import { Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { formatSize, formatYield } from '../../../lib/format';
import { formatPnl, money, pnlTone } from '../utils/book-rows';
import classes from './inventory.module.css';

const MaturityChart = lazy(() => import('./maturity-chart').then((module) => ({ default: module.MaturityChart })));

type Breakdown = Inventory['breakdowns']['rating'];

function Figure({ label, value, tone, testId }: { label: string; value: string; tone?: 'gain' | 'loss' | 'flat'; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} className={`${classes.mono} ${tone && tone !== 'flat' ? classes[tone] : ''}`} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/** One breakdown as an accessible bar list: each key, its share of market value as a bar, the figure beside it. */
function BreakdownList({ title, rows }: { title: string; rows: Breakdown }) {
  const max = Math.max(...rows.map((row) => Math.abs(row.market_value)), 1);
  return (
    <Paper withBorder p="sm" radius="md">
      <Title order={3} fz="sm" mb={6}>
        {title}
      </Title>
      <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={title}>
        {rows.slice(0, 6).map((row) => (
          <Group key={row.key} gap="xs" wrap="nowrap" component="li">
            <Text size="xs" w={110} truncate="end" title={row.key}>
              {row.key}
            </Text>
            <div className={classes.barTrack} aria-hidden>
              <div className={classes.bar} style={{ width: `${(Math.abs(row.market_value) / max) * 100}%` }} />
            </div>
            <Text size="xs" className={classes.mono} w={84} ta="right">
              {money(row.market_value)}
            </Text>
          </Group>
        ))}
        {rows.length > 6 ? (
          <Text size="xs" c="dimmed" component="li">
            and {rows.length - 6} more
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** Totals of the whole book and its breakdowns: the maturity profile chart, and by rating, issuer and sector. */
export function BookSummary({ inventory }: { inventory: Inventory }) {
  const t = inventory.totals;
  const buckets = MATURITY_BUCKETS.map(
    (key) =>
      inventory.breakdowns.maturity_bucket.find((row) => row.key === key) ?? {
        key,
        positions: 0,
        face_value: 0,
        market_value: 0,
        unrealised_pnl: 0,
        pv01: 0,
      },
  ).filter((row) => row.key !== 'Perpetual' || row.positions > 0);
  return (
    <Stack gap="sm">
      <Paper withBorder p="sm" radius="md" data-testid="inventory-totals">
        <Group gap="xl" wrap="wrap">
          <Figure label="Face value" value={formatSize(t.face_value)} />
          <Figure label="Market value" value={money(t.market_value)} testId="inventory-market-value" />
          <Figure label="Cost" value={money(t.cost)} />
          <Figure
            label="Unrealised P&L"
            value={formatPnl(t.unrealised_pnl)}
            tone={pnlTone(t.unrealised_pnl)}
            testId="inventory-unrealised"
          />
          <Figure label="Realised P&L" value={formatPnl(t.realised_pnl)} tone={pnlTone(t.realised_pnl)} />
          <Figure label="Accrued interest" value={money(t.accrued_interest)} />
          <Figure label="Yield" value={formatYield(t.bond_yield)} />
          <Figure label="Mod. duration" value={t.modified_duration === null ? '—' : t.modified_duration.toFixed(2)} />
          <Figure label="PV01" value={money(t.pv01)} />
          {t.not_valued > 0 ? <Figure label="Not valued" value={String(t.not_valued)} /> : null}
        </Group>
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2, lg: 4 }} spacing="sm">
        <Paper withBorder p="sm" radius="md">
          <Title order={3} fz="sm" mb={6}>
            Maturity profile
          </Title>
          <Suspense fallback={<Skeleton height={200} />}>
            <MaturityChart rows={buckets} />
          </Suspense>
        </Paper>
        <BreakdownList title="By rating" rows={inventory.breakdowns.rating} />
        <BreakdownList title="By issuer" rows={inventory.breakdowns.issuer} />
        <BreakdownList title="By sector" rows={inventory.breakdowns.sector} />
      </SimpleGrid>
    </Stack>
  );
}
