import { checkFaceValue, EXTERNAL_TRADE_SIDES, INVENTORY_DEFAULT_ACCOUNT, type Position } from '@dart/contracts';
import { Button, Group, Modal, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FaceValueInput } from '../../../components/ui/face-value-input';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { formatSize } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { recordExternalTrade, useBookMutation } from '../api/inventory-commands';
import { formatPnl } from '../utils/book-rows';
import { istToday, readNumber, serverErrors } from '../utils/form';

export interface ExternalTradeTarget {
  /** The holding the trade is on (ISIN and account filled in), or none for a new bond. */
  position: Position | null;
  side: 'BUY' | 'SELL';
}

const FIELDS = ['isin', 'account', 'side', 'face_value', 'price', 'trade_date', 'counterparty', 'reference'] as const;
type Field = (typeof FIELDS)[number];

/**
 * "Record external trade": a trade done outside Dart moves the holding at weighted-average cost (a sell realises
 * P&L; more than is held is refused). Every field error from the server shows on its field.
 */
export function ExternalTradeDialog({ target, onClose }: { target: ExternalTradeTarget | null; onClose: () => void }) {
  if (!target) return null;
  return <ExternalTradeForm key={`${target.position?.id ?? 'new'}:${target.side}`} target={target} onClose={onClose} />;
}

function ExternalTradeForm({ target, onClose }: { target: ExternalTradeTarget; onClose: () => void }) {
  const held = target.position;
  const [isin, setIsin] = useState(held?.isin ?? '');
  const [account, setAccount] = useState(held?.account ?? INVENTORY_DEFAULT_ACCOUNT);
  const [side, setSide] = useState<'BUY' | 'SELL'>(target.side);
  const [face, setFace] = useState('');
  const [price, setPrice] = useState(held?.valuation.clean_price?.toFixed(4) ?? '');
  const [tradeDate, setTradeDate] = useState(istToday());
  const [counterparty, setCounterparty] = useState('');
  const [reference, setReference] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [key] = useState(() => crypto.randomUUID());
  const mutation = useBookMutation(recordExternalTrade);
  const perBond = held && held.number_of_bonds > 0 ? held.face_value / held.number_of_bonds : undefined;

  const clear = (field: Field) => {
    setErrors((old) => ({ ...old, [field]: undefined }));
    setMessage(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const size = checkFaceValue(face, perBond);
    const priceValue = readNumber(price);
    const local: Partial<Record<Field, string>> = {};
    if (!/^[A-Za-z0-9]{12}$/.test(isin.trim())) local.isin = 'Enter the bond’s 12-character ISIN.';
    if (!size.ok) local.face_value = size.message;
    if (priceValue === null || priceValue <= 0) local.price = 'Enter the clean price per ₹100, e.g. 101.25.';
    if (Object.keys(local).length > 0 || !size.ok || priceValue === null) {
      setErrors(local);
      return;
    }
    try {
      const movement = await mutation.mutateAsync({
        variables: {
          isin: isin.trim().toUpperCase(),
          account: account.trim() || INVENTORY_DEFAULT_ACCOUNT,
          side,
          face_value: size.rupees,
          price: priceValue,
          trade_date: tradeDate,
          ...(counterparty.trim() ? { counterparty: counterparty.trim() } : {}),
          ...(reference.trim() ? { reference: reference.trim() } : {}),
        },
        key,
      });
      showToast({
        severity: 'success',
        summary: 'External trade recorded',
        detail:
          side === 'SELL'
            ? `Sold ${formatSize(movement.face_value)}; realised P&L ${formatPnl(movement.realised_pnl)}. ${formatSize(movement.position.face_value)} held.`
            : `Bought ${formatSize(movement.face_value)}; ${formatSize(movement.position.face_value)} held.`,
      });
      onClose();
    } catch (caught) {
      const { fields, message: sentence } = serverErrors(caught);
      const mapped: Partial<Record<Field, string>> = {};
      for (const field of FIELDS) if (fields[field]) mapped[field] = fields[field];
      setErrors(mapped);
      setMessage(Object.keys(mapped).length > 0 ? null : sentence);
    }
  }

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>Record external trade</Text>} size="lg">
      <form onSubmit={submit} noValidate aria-label="Record external trade">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            A trade done outside Dart. A buy adds to the holding at its price; a sell takes out the weighted-average cost of what it sells
            and realises the difference.
            {held ? ` Held: ${formatSize(held.face_value)} in ${held.account}.` : ''}
          </Text>
          <SegmentedControl
            aria-label="Side"
            value={side}
            onChange={(value) => {
              setSide(value as 'BUY' | 'SELL');
              clear('side');
            }}
            data={EXTERNAL_TRADE_SIDES.map((value) => ({ value, label: value === 'BUY' ? 'Buy' : 'Sell' }))}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="ISIN"
              required
              value={isin}
              onChange={(event) => {
                setIsin(event.currentTarget.value);
                clear('isin');
              }}
              error={errors.isin}
              autoComplete="off"
              maxLength={12}
              data-autofocus={held ? undefined : true}
            />
            <TextInput
              label="Account"
              value={account}
              onChange={(event) => {
                setAccount(event.currentTarget.value);
                clear('account');
              }}
              error={errors.account}
              description="A portfolio (AFS, HTM, HFT) or a custodian account"
              autoComplete="off"
            />
            <FaceValueInput
              required
              value={face}
              onChange={(text) => {
                setFace(text);
                clear('face_value');
              }}
              perBond={perBond}
              error={errors.face_value}
              data-autofocus={held ? true : undefined}
            />
            <TextInput
              label="Price (clean, per ₹100)"
              required
              value={price}
              onChange={(event) => {
                setPrice(event.currentTarget.value);
                clear('price');
              }}
              error={errors.price}
              inputMode="decimal"
              autoComplete="off"
            />
            <TextInput
              label="Trade date"
              type="date"
              required
              value={tradeDate}
              max={istToday()}
              onChange={(event) => {
                setTradeDate(event.currentTarget.value);
                clear('trade_date');
              }}
              error={errors.trade_date}
            />
            <TextInput
              label="Counterparty (optional)"
              value={counterparty}
              onChange={(event) => {
                setCounterparty(event.currentTarget.value);
                clear('counterparty');
              }}
              error={errors.counterparty}
              maxLength={200}
            />
            <TextInput
              label="Reference (optional)"
              value={reference}
              onChange={(event) => {
                setReference(event.currentTarget.value);
                clear('reference');
              }}
              error={errors.reference}
              maxLength={100}
            />
          </SimpleGrid>
          <FormErrorAlert message={message} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending} color={side === 'SELL' ? 'red' : undefined}>
              {side === 'SELL' ? 'Record sell' : 'Record buy'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
