import { ORDER_KIND_LABELS, type Order, type Ticket } from '@dart/contracts';
import { Alert, Badge, Loader, Table, Text } from '@mantine/core';
import { describeError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useConfirmedTrade } from '../api/get-confirmed-trade';
import { Section } from './ticket-details';
import classes from './tickets.module.css';

const ORDER_STATE_COLORS: Record<Order['state'], string> = {
  reporting: 'violet',
  mismatch: 'orange',
  reported: 'teal',
  accepted: 'blue',
  rejected: 'gray',
  settled: 'green',
  failed: 'red',
  cancelled: 'gray',
};

function OrderRow({ order }: { order: Order }) {
  return (
    <Table.Tr data-testid="ticket-order">
      <Table.Td className={classes.mono} fw={600}>
        {order.number}
      </Table.Td>
      <Table.Td>{ORDER_KIND_LABELS[order.kind]}</Table.Td>
      <Table.Td>
        <Badge size="sm" radius="sm" variant="light" tt="none" color={ORDER_STATE_COLORS[order.state]}>
          {order.state_label}
        </Badge>
      </Table.Td>
      <Table.Td className={classes.mono}>{order.exchange_trade_id ?? '—'}</Table.Td>
      <Table.Td>{order.custodian_name ?? '—'}</Table.Td>
      <Table.Td className={classes.mono}>
        {order.settled_at ? formatDateTime(order.settled_at) : order.reported_at ? formatDateTime(order.reported_at) : '—'}
      </Table.Td>
      <Table.Td>
        <Text size="xs" c={order.state === 'failed' || order.state === 'mismatch' ? 'red' : 'dimmed'}>
          {order.reason ?? ''}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * The firm's order (seller) or procurement order (buyer) of a confirmed ticket, from the trade confirmation:
 * its state at the exchange and the clearing corporation, the venue's trade id and any failure's reason.
 */
export function TicketOrders({ ticket }: { ticket: Ticket }) {
  const confirmed = Boolean(ticket.order_ids.order || ticket.order_ids.procurement);
  const query = useConfirmedTrade(ticket.id, ticket.version, confirmed);
  if (!confirmed) return null;
  const orders = [query.data?.order, query.data?.procurement_order].filter((order): order is Order => Boolean(order));
  return (
    <Section title="Orders" testId="ticket-orders">
      {query.isError ? (
        <Alert color="red" variant="light">
          {describeError(query.error)}
        </Alert>
      ) : query.isPending ? (
        <Loader size="xs" aria-label="Loading the orders" />
      ) : (
        <>
          <Text size="xs" c="dimmed" mb={4}>
            Confirmed {formatDateTime(query.data.confirmed_at)} · seller’s custodian {query.data.seller_custodian} · buyer’s custodian{' '}
            {query.data.buyer_custodian}
          </Text>
          {orders.length === 0 ? (
            <Text size="sm" c="dimmed">
              The orders are the principals’ own: brokers see the ticket’s state only.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={620}>
              <Table verticalSpacing={3} horizontalSpacing="xs" fz="sm" aria-label="Orders">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Number</Table.Th>
                    <Table.Th>Kind</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th>Exchange trade id</Table.Th>
                    <Table.Th>Custodian</Table.Th>
                    <Table.Th>Reported / settled</Table.Th>
                    <Table.Th>Reason</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {orders.map((order) => (
                    <OrderRow key={order.id} order={order} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
    </Section>
  );
}
