import type { PrivateRunCard } from '@dart/contracts';
import { Badge, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDate, formatDateTime, formatPrice, formatSizeWithCount, formatYield } from '../../../lib/format';
import type { PrivateRunViewer } from '../utils/private-run';
import type { ChatSlots } from './chat-slots';
import classes from './chat.module.css';

const OWN_TEXT: Record<Exclude<PrivateRunViewer, 'other-firm'>, string> = {
  sender: 'Your private run',
  'own-firm': 'Your firm’s private run',
};

function Fact({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={classes.runFact} data-wide={wide}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

interface PrivateRunCardViewProps extends Pick<ChatSlots, 'renderQuoteAction'> {
  card: PrivateRunCard;
  viewer: PrivateRunViewer;
}

/**
 * A private run in a chat, from the card the server wrote (text only: React escapes every value):
 * side, bond and ISIN, yield (%, 4 dp), clean price (4 dp), size (face value in ₹ Cr/L with its bond count), settlement
 * date and expiry; another firm gets the route's action (Counter), the sender's firm a note.
 */
export function PrivateRunCardView({ card, viewer, renderQuoteAction }: PrivateRunCardViewProps) {
  const bid = card.quote_type === 'BID';
  const side = bid ? 'Bid' : 'Ask';
  return (
    <Stack
      gap={8}
      className={classes.privateRun}
      data-testid="chat-private-run"
      data-quote-id={card.quote_id}
      data-side={card.quote_type}
      role="group"
      aria-label={`Private run: ${side} ${card.display_name}`}
    >
      <Group gap={6} wrap="nowrap">
        <Badge color={bid ? 'teal' : 'red'} variant="filled" radius="sm" data-testid="chat-private-run-side">
          {side}
        </Badge>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase" className={classes.runKind}>
          Private run
        </Text>
      </Group>
      <Stack gap={0}>
        <Text size="sm" fw={650} data-testid="chat-private-run-bond">
          {card.display_name}
        </Text>
        <Text size="xs" c="dimmed" className={classes.mono} data-testid="chat-private-run-isin">
          {card.isin}
        </Text>
      </Stack>
      <dl className={classes.runFacts}>
        <Fact label="Yield">
          <span data-testid="chat-private-run-yield">{formatYield(card.yield_stored)}</span>
        </Fact>
        <Fact label="Price">
          <span data-testid="chat-private-run-price">{formatPrice(card.unit_price_stored)}</span>
        </Fact>
        <Fact label="Quantum">
          <span data-testid="chat-private-run-quantum">{formatSizeWithCount(card.quantum, card.face_value_per_bond)}</span>
        </Fact>
        <Fact label="Settlement">
          <span data-testid="chat-private-run-settlement">{formatDate(card.settlement_date)}</span>
        </Fact>
        <Fact label="Expires" wide>
          <span data-testid="chat-private-run-expiry">{formatDateTime(card.expiry_date_stored)}</span>
        </Fact>
      </dl>
      {viewer === 'other-firm' ? (
        renderQuoteAction ? (
          <Group gap={6}>{renderQuoteAction(card)}</Group>
        ) : null
      ) : (
        <Text size="xs" c="dimmed" fs="italic" data-testid="chat-private-run-own">
          {OWN_TEXT[viewer]}
        </Text>
      )}
    </Stack>
  );
}
