import type { NetworkFirmStats } from '@dart/contracts';
import { ActionIcon, Badge, Group, Text, Tooltip } from '@mantine/core';
import { BroadcastIcon, ChatIcon, QuoteIcon } from '../../../components/ui/icons';
import classes from './panels.module.css';

/** A firm of the Build Network panel, with what its one-click actions need. */
export interface BuildNetworkRow {
  clientId: string;
  name: string;
  isBroker: boolean;
  /** People of the firm shown under its name (a broker's dealers). */
  people: string[];
  /** Our last 90 days with the firm (`GET api/network/stats/`); null when we have none. */
  stats: NetworkFirmStats | null;
  /** Whom Chat opens a direct chat with. */
  contact: { userId: string; name: string } | null;
  /** Exchanges the firm takes RFQs on; null when unknown. */
  rfqExchanges: string[] | null;
}

/** What a row's buttons do; the route wires them to chat and the market. */
export interface BuildNetworkActions {
  onChat: (row: BuildNetworkRow) => void;
  onPrivateRun: (row: BuildNetworkRow) => void;
  onOtoRfq: (row: BuildNetworkRow, exchange: string) => void;
  /** Users who may trade (private runs and RFQs); others see Chat only. */
  canTrade: boolean;
  /** The exchanges our firm raises RFQs on. */
  myRfqExchanges: readonly string[];
}

const percent = (ratio: number | null) => (ratio === null ? '–' : `${Math.round(ratio * 100)}%`);

/** Seconds as people read a wait: `< 1 s`, `42 s`, `3 m 5 s`, `2 h 10 m`. */
export function formatWait(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 1) return '< 1 s';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  if (whole < 3600) return `${Math.floor(whole / 60)} m ${whole % 60} s`;
  return `${Math.floor(whole / 3600)} h ${Math.floor((whole % 3600) / 60)} m`;
}

/** The four quality figures in one dense line; each names its measure in a tooltip. */
function StatsLine({ stats }: { stats: NetworkFirmStats }) {
  const items = [
    {
      key: 'response',
      label: 'Response',
      value: percent(stats.response_rate),
      hint: `${stats.answered} of ${stats.requests} private runs, RFQs and counters we sent them answered (90 days)`,
    },
    {
      key: 'median',
      label: 'Median',
      value: formatWait(stats.median_response_seconds),
      hint: 'Median time from our request to their answer',
    },
    {
      key: 'hit',
      label: 'Hit',
      value: percent(stats.hit_rate),
      hint: `Negotiations with them that ended in a deal: ${stats.negotiations} ended`,
    },
    {
      key: 'held',
      label: 'Held/pulled',
      value: `${stats.quotes_held}/${stats.quotes_pulled}`,
      hint: 'Their quotes to us left to run or filled / withdrawn before expiry',
    },
  ];
  return (
    <Group gap={10} wrap="nowrap" className={classes.stats} data-testid="network-stats">
      {items.map((item) => (
        <Tooltip key={item.key} label={item.hint} openDelay={300} withArrow>
          <Text size="xs" c="dimmed" span data-testid={`network-stat-${item.key}`} tabIndex={-1}>
            {item.label}{' '}
            <Text span size="xs" fw={600} c="var(--mantine-color-text)">
              {item.value}
            </Text>
          </Text>
        </Tooltip>
      ))}
    </Group>
  );
}

/** One firm: name, people or contact, the quality line, and Chat / Private run / OTO RFQ. */
export function BuildNetworkPanelRow({ row, actions }: { row: BuildNetworkRow; actions: BuildNetworkActions }) {
  const who = row.people.length > 0 ? row.people.join(', ') : (row.contact?.name ?? '');
  const rfqExchange = row.rfqExchanges?.find((exchange) => actions.myRfqExchanges.includes(exchange)) ?? null;
  const rfqHint = !actions.canTrade
    ? 'Trading access is needed to raise an RFQ'
    : actions.myRfqExchanges.length === 0
      ? 'Your firm is not enabled for exchange RFQs'
      : rfqExchange
        ? `Raise a one-to-one RFQ to ${row.name} on ${rfqExchange}`
        : `${row.name} is not an exchange RFQ participant`;
  return (
    <li className={classes.networkRow} data-testid="network-firm" data-firm={row.name}>
      <div className={classes.rowMain}>
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={500} truncate title={row.name}>
            {row.name}
          </Text>
          {row.isBroker ? (
            <Badge size="xs" variant="light" color="gray" radius="sm" className={classes.noShrink}>
              Broker
            </Badge>
          ) : null}
          {row.stats && row.stats.deals > 0 ? (
            <Badge size="xs" variant="light" color="teal" radius="sm" className={classes.noShrink}>
              {row.stats.deals} {row.stats.deals === 1 ? 'deal' : 'deals'}
            </Badge>
          ) : null}
        </Group>
        {who ? (
          <Text size="xs" c="dimmed" truncate title={who} data-testid="network-contact">
            {who}
          </Text>
        ) : null}
        {row.stats ? <StatsLine stats={row.stats} /> : null}
      </div>
      <Group gap={2} wrap="nowrap" className={classes.noShrink}>
        <Tooltip label={row.contact ? `Chat with ${row.contact.name}` : 'Nobody at this firm to chat with yet'} withArrow>
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={`Chat with ${row.name}`}
            disabled={!row.contact}
            onClick={() => actions.onChat(row)}
          >
            <ChatIcon size={14} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={actions.canTrade ? `Send ${row.name} a private run` : 'Trading access is needed for private runs'} withArrow>
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={`Private run to ${row.name}`}
            disabled={!actions.canTrade}
            onClick={() => actions.onPrivateRun(row)}
          >
            <QuoteIcon size={14} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={rfqHint} withArrow>
          {/* A disabled button gets no pointer events: the span keeps its tooltip reachable. */}
          <span tabIndex={rfqExchange && actions.canTrade ? -1 : 0} aria-label={rfqExchange ? undefined : rfqHint}>
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={`OTO RFQ to ${row.name}`}
              disabled={!rfqExchange || !actions.canTrade}
              onClick={() => rfqExchange && actions.onOtoRfq(row, rfqExchange)}
            >
              <BroadcastIcon size={14} />
            </ActionIcon>
          </span>
        </Tooltip>
      </Group>
    </li>
  );
}
