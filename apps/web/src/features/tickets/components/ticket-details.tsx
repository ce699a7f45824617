import { formatRupees, type Ticket, type TicketParty } from '@dart/contracts';
import { Badge, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatBonds, formatDate, formatDateTime, formatPrice, formatSize, formatYield } from '../../../lib/format';
import classes from './tickets.module.css';

const SOURCE_LABELS: Record<Ticket['source'], string> = {
  negotiation: 'Negotiation',
  cluster: 'Cluster match',
  exchange_rfq: 'Exchange RFQ',
  private_run: 'Private run',
  deal: 'Deal',
  manual: 'Manual ticket',
};

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className={classes.section} aria-label={title} data-testid={testId}>
      <Title order={3} fz="xs" tt="uppercase" c="dimmed" fw={700} mb={6} style={{ letterSpacing: '0.04em' }}>
        {title}
      </Title>
      {children}
    </section>
  );
}

function Stat({ label, value, title }: { label: string; value: ReactNode; title?: string }) {
  return (
    <Stack gap={0} className={classes.stat}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} className={classes.mono} title={title} truncate>
        {value}
      </Text>
    </Stack>
  );
}

/** Price, yield, size, settlement, venue and the clocks of the trade. */
export function TicketTerms({ ticket }: { ticket: Ticket }) {
  const bonds = formatBonds(ticket.quantum, ticket.face_value_per_bond);
  return (
    <Section title="Terms" testId="ticket-terms">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing={6}>
        <Stat label="Clean price (per ₹100)" value={formatPrice(ticket.price)} />
        <Stat label="Yield" value={formatYield(ticket.yield)} />
        <Stat label="Face value" value={formatSize(ticket.quantum)} title={bonds || undefined} />
        <Stat label="Bonds" value={bonds || '—'} />
        <Stat label="Settlement date" value={formatDate(ticket.settlement_date)} />
        <Stat
          label="Exchange"
          value={`${ticket.exchange} · ${ticket.clearing_corporation}`}
          title="Reported on, and settled DVP-I through"
        />
        <Stat label="Traded at" value={formatDateTime(ticket.traded_at)} />
        <Stat label="Report by" value={formatDateTime(ticket.report_deadline)} />
        <Stat label="Source" value={SOURCE_LABELS[ticket.source]} />
        <Stat label="Price confirmed" value={ticket.price_confirmed_at ? formatDateTime(ticket.price_confirmed_at) : 'Not yet'} />
        <Stat label="Security type" value={ticket.security_type ?? '—'} />
        <Stat label="Last change" value={formatDateTime(ticket.updated_at)} />
      </SimpleGrid>
    </Section>
  );
}

function PartyRow({ role, party, brokerage }: { role: string; party: TicketParty; brokerage?: number | null }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="xs" c="dimmed">
          {role}
        </Text>
      </Table.Td>
      <Table.Td fw={600}>{party.name}</Table.Td>
      <Table.Td>{party.user_name ?? '—'}</Table.Td>
      <Table.Td className={classes.mono}>{party.nsccl_code ?? '—'}</Table.Td>
      <Table.Td className={classes.mono}>{party.iccl_code ?? '—'}</Table.Td>
      <Table.Td ta="right" className={classes.mono}>
        {brokerage === undefined ? '' : brokerage === null ? '—' : formatRupees(brokerage)}
      </Table.Td>
    </Table.Tr>
  );
}

/** The seller and the buyer (firm, dealer, clearing codes) and the broker working each side with its brokerage. */
export function TicketParties({ ticket }: { ticket: Ticket }) {
  const brokerOf = (side: 'buy' | 'sell') => ticket.broker_details.filter((broker) => broker.buy_or_sell === side);
  return (
    <Section title="Parties" testId="ticket-parties">
      <Table.ScrollContainer minWidth={520}>
        <Table verticalSpacing={3} horizontalSpacing="xs" fz="sm" aria-label="Parties">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Role</Table.Th>
              <Table.Th>Firm</Table.Th>
              <Table.Th>Dealer</Table.Th>
              <Table.Th>NSCCL code</Table.Th>
              <Table.Th>ICCL code</Table.Th>
              <Table.Th ta="right">Brokerage</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <PartyRow role="Seller" party={ticket.seller_details} />
            {brokerOf('sell').map((broker) => (
              <PartyRow key={`sell-${broker.client_id}`} role="Seller’s broker" party={broker} brokerage={broker.brokerage} />
            ))}
            <PartyRow role="Buyer" party={ticket.buyer_details} />
            {brokerOf('buy').map((broker) => (
              <PartyRow key={`buy-${broker.client_id}`} role="Buyer’s broker" party={broker} brokerage={broker.brokerage} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Section>
  );
}

/**
 * The consideration as bond-math computed it on the server (₹ to the paisa): principal = clean price × face value
 * / 100, accrued interest to the settlement date, stamp duty on the buyer, what the buyer pays and the seller receives.
 */
export function ConsiderationBreakdown({ ticket }: { ticket: Ticket }) {
  const c = ticket.consideration;
  const rows: { label: string; value: string; total?: boolean; hint?: string }[] = [
    { label: 'Face value', value: formatRupees(c.face_value, 0), hint: formatBonds(c.face_value, ticket.face_value_per_bond) },
    { label: 'Clean price (per ₹100)', value: formatPrice(c.clean_price) },
    { label: 'Principal', value: formatRupees(c.principal), hint: 'clean price × face value ÷ 100' },
    { label: `Accrued interest (${c.accrued_days} day${c.accrued_days === 1 ? '' : 's'})`, value: formatRupees(c.accrued_interest) },
    { label: 'Consideration', value: formatRupees(c.consideration), total: true, hint: 'principal + accrued interest' },
    { label: 'Stamp duty (buyer)', value: formatRupees(c.stamp_duty), hint: c.stamp_duty === 0 ? 'nil on G-secs' : '0.0001 %' },
    { label: 'Buyer pays', value: formatRupees(c.buyer_pays), total: true },
    { label: 'Seller receives', value: formatRupees(c.seller_receives), total: true },
  ];
  return (
    <Section title="Consideration" testId="ticket-consideration">
      <Table verticalSpacing={2} horizontalSpacing="xs" fz="sm" className={classes.breakdown} aria-label="Consideration breakdown">
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.label} className={row.total ? classes.breakdownTotal : undefined}>
              <Table.Td>
                {row.label}
                {row.hint ? (
                  <Text span size="xs" c="dimmed" ml={6}>
                    {row.hint}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{row.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Section>
  );
}

function Acceptance({ side, acceptance }: { side: string; acceptance: Ticket['buyer_acceptance'] }) {
  return (
    <Stack gap={2}>
      <Group gap={6}>
        <Text size="sm" fw={600}>
          {side}
        </Text>
        <Badge size="xs" radius="sm" variant="light" color={acceptance.accepted_at ? 'teal' : 'gray'} tt="none">
          {acceptance.accepted_at ? 'Accepted' : 'Not yet accepted'}
        </Badge>
      </Group>
      {acceptance.accepted_at ? (
        <Text size="xs" c="dimmed">
          {acceptance.accepted_by ?? 'Someone'} · {formatDateTime(acceptance.accepted_at)}
        </Text>
      ) : null}
      <Text size="xs">Custodian: {acceptance.custodian_name ?? '—'}</Text>
    </Stack>
  );
}

/** Each side's acceptance of the consideration, with the custodian it settles through. */
export function TicketAcceptances({ ticket }: { ticket: Ticket }) {
  return (
    <Section title="Consideration acceptance" testId="ticket-acceptances">
      <SimpleGrid cols={2} spacing="sm">
        <Acceptance side="Seller" acceptance={ticket.seller_acceptance} />
        <Acceptance side="Buyer" acceptance={ticket.buyer_acceptance} />
      </SimpleGrid>
    </Section>
  );
}
