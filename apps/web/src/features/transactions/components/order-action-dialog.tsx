import { ORDER_MESSAGES, type Order } from '@dart/contracts';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError } from '../../../lib/errors';
import { formatSize } from '../../../lib/format';
import type { OrderCommands } from '../hooks/use-order-commands';
import { ORDER_ACTION_LABELS, REASON_ACTIONS, type OrderActionId } from '../utils/order-format';

export interface PendingOrderAction {
  order: Order;
  action: OrderActionId;
}

const WHAT_IT_DOES: Record<OrderActionId, string> = {
  accept: 'You accept the trade as reported; it goes on to settlement.',
  reject: 'You reject the consideration: the trade is cancelled on both sides.',
  cancel: 'The trade is cancelled on both sides and withdrawn from the exchange.',
  settle: 'The clearing corporation runs the pay-in and pay-out again.',
  settle_cancel: 'The failed settlement is cancelled; the trade does not settle.',
};

/**
 * Confirms an order action before it goes: what it does, and the reason where one is asked (required to reject or
 * cancel, optional to cancel a settlement). Enter confirms; the server's refusal is shown in place.
 */
export function OrderActionDialog({
  pending,
  onClose,
  commands,
}: {
  pending: PendingOrderAction | null;
  onClose: () => void;
  commands: OrderCommands;
}) {
  if (!pending) return null;
  // A new action starts with an empty reason and no error.
  return <OrderActionForm key={`${pending.order.id}:${pending.action}`} pending={pending} onClose={onClose} commands={commands} />;
}

function OrderActionForm({ pending, onClose, commands }: { pending: PendingOrderAction; onClose: () => void; commands: OrderCommands }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { order, action } = pending;
  const reasonRule = REASON_ACTIONS[action];
  const danger = action !== 'accept' && action !== 'settle';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (reasonRule === 'required' && reason.trim() === '') {
      setError(ORDER_MESSAGES.reasonRequired);
      return;
    }
    setBusy(true);
    try {
      await commands.run(order, action, reason.trim() || undefined);
      onClose();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{`${ORDER_ACTION_LABELS[action]} · ${order.number}`}</Text>} size="md">
      <form onSubmit={submit} noValidate aria-label={`${ORDER_ACTION_LABELS[action]} ${order.number}`}>
        <Stack gap="sm">
          <Text size="sm">
            {order.buy_or_sell === 'sell' ? 'Sell' : 'Buy'} {formatSize(order.quantum)} {order.bond_name} with {order.counterparty_name}.
          </Text>
          <Text size="sm" c="dimmed">
            {WHAT_IT_DOES[action]}
          </Text>
          {reasonRule ? (
            <Textarea
              label={reasonRule === 'required' ? 'Reason' : 'Reason (optional)'}
              required={reasonRule === 'required'}
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setError(null);
              }}
              onKeyDown={(event) => {
                // Enter confirms; Shift+Enter adds a line.
                if (event.key === 'Enter' && !event.shiftKey) {
                  event.preventDefault();
                  event.currentTarget.form?.requestSubmit();
                }
              }}
              maxLength={500}
              autosize
              minRows={2}
              data-autofocus
            />
          ) : null}
          {error ? (
            <Alert color="red" variant="light" role="alert" py={6}>
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" color={danger ? 'red' : undefined} loading={busy} data-autofocus={reasonRule ? undefined : true}>
              {ORDER_ACTION_LABELS[action]}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
