import { checkFaceValue, CLEARING_CORPORATIONS, INVENTORY_MESSAGES, type InventoryOfferKind, type Position } from '@dart/contracts';
import { Button, Group, Modal, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { FaceValueInput } from '../../../components/ui/face-value-input';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { formatPrice, formatSize, formatYield } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { offerHolding, useBookMutation, type OfferBody } from '../api/inventory-commands';
import { readNumber, serverErrors } from '../utils/form';

/** The counterparty picker a route hands in (another feature's component; features do not import each other). */
export type CounterpartySlot = (props: { value: string[]; onChange: (ids: string[]) => void; error?: string | undefined }) => ReactNode;

export const OFFER_KIND_LABELS: Record<InventoryOfferKind, string> = {
  public_run: 'Public run',
  private_run: 'Private run',
  exchange_rfq: 'Exchange RFQ',
};
const WHAT_IT_DOES: Record<InventoryOfferKind, string> = {
  public_run: 'An ask in the public runs: every firm on Dart sees it.',
  private_run: 'An ask only the counterparties you choose see, in their private runs.',
  exchange_rfq: 'A sell RFQ on the exchange’s RFQ platform, settled at the clearing corporation you choose.',
};

type Field = 'face_value' | 'price' | 'yield' | 'counterparties' | 'validity' | 'clearing_corporation';

/**
 * "Offer": a holding becomes an ask in one step — sized to the whole holding and priced at the valuation yield
 * unless a size, a price or a yield is given. More than is held is refused.
 */
export function OfferDialog({
  position,
  onClose,
  renderCounterparties,
}: {
  position: Position | null;
  onClose: () => void;
  renderCounterparties?: CounterpartySlot | undefined;
}) {
  if (!position) return null;
  return <OfferForm key={position.id} position={position} onClose={onClose} renderCounterparties={renderCounterparties} />;
}

function OfferForm({
  position,
  onClose,
  renderCounterparties,
}: {
  position: Position;
  onClose: () => void;
  renderCounterparties?: CounterpartySlot | undefined;
}) {
  const [kind, setKind] = useState<InventoryOfferKind>('public_run');
  const [face, setFace] = useState('');
  const [level, setLevel] = useState<'valuation' | 'price' | 'yield'>('valuation');
  const [levelText, setLevelText] = useState('');
  const [counterparties, setCounterparties] = useState<string[]>([]);
  const [clearing, setClearing] = useState<(typeof CLEARING_CORPORATIONS)[number]>('NSCCL');
  const [validity, setValidity] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [key] = useState(() => crypto.randomUUID());
  const mutation = useBookMutation(offerHolding);
  const perBond = position.number_of_bonds > 0 ? position.face_value / position.number_of_bonds : undefined;
  const valued = position.valuation.bond_yield !== null;

  const clear = (field: Field) => {
    setErrors((old) => ({ ...old, [field]: undefined }));
    setMessage(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Partial<Record<Field, string>> = {};
    const body: OfferBody = { position_id: position.id, kind };
    if (face.trim() !== '') {
      const size = checkFaceValue(face, perBond);
      if (!size.ok) local.face_value = size.message;
      else if (size.rupees > position.face_value) local.face_value = INVENTORY_MESSAGES.offerTooLarge(formatSize(position.face_value));
      else body.face_value = size.rupees;
    }
    if (level !== 'valuation') {
      const value = readNumber(levelText);
      if (value === null || value <= 0)
        local[level] = level === 'price' ? 'Enter a clean price per ₹100.' : 'Enter a yield in %, e.g. 7.25.';
      else if (level === 'price') body.price = value;
      else body.yield = Number((value / 100).toFixed(6));
    } else if (!valued) local.price = INVENTORY_MESSAGES.notPriceable;
    if (kind === 'private_run') {
      if (counterparties.length === 0) local.counterparties = INVENTORY_MESSAGES.privateRunNeedsCounterparties;
      body.counterparties = counterparties;
    }
    if (kind === 'exchange_rfq') body.clearing_corporation = clearing;
    if (validity.trim() !== '') {
      const minutes = readNumber(validity);
      if (minutes === null || !Number.isInteger(minutes) || minutes < 1) local.validity = 'Enter whole minutes, at least 1.';
      else body.validity = minutes;
    }
    if (Object.values(local).some(Boolean)) {
      setErrors(local);
      return;
    }
    try {
      await mutation.mutateAsync({ variables: body, key });
      showToast({
        severity: 'success',
        summary: `Offered as a ${OFFER_KIND_LABELS[kind].toLowerCase()}`,
        detail: `${formatSize(body.face_value ?? position.face_value)} of ${position.display_name}.`,
      });
      onClose();
    } catch (caught) {
      const { fields, message: sentence } = serverErrors(caught);
      const mapped: Partial<Record<Field, string>> = {};
      for (const field of ['face_value', 'price', 'yield', 'counterparties', 'validity', 'clearing_corporation'] as const)
        if (fields[field]) mapped[field] = fields[field];
      setErrors(mapped);
      setMessage(Object.keys(mapped).length > 0 ? null : sentence);
    }
  }

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>Offer {position.display_name}</Text>} size="lg">
      <form onSubmit={submit} noValidate aria-label="Offer holding">
        <Stack gap="sm">
          <Text size="sm">
            Held: {formatSize(position.face_value)} in {position.account}. Valuation{' '}
            {valued
              ? `${formatPrice(position.valuation.clean_price)} (yield ${formatYield(position.valuation.bond_yield)})`
              : 'not available'}
            .
          </Text>
          <SegmentedControl
            aria-label="Offer as"
            value={kind}
            onChange={(value) => {
              setKind(value as InventoryOfferKind);
              setMessage(null);
            }}
            data={(Object.keys(OFFER_KIND_LABELS) as InventoryOfferKind[]).map((value) => ({ value, label: OFFER_KIND_LABELS[value] }))}
          />
          <Text size="xs" c="dimmed">
            {WHAT_IT_DOES[kind]}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <FaceValueInput
              value={face}
              onChange={(text) => {
                setFace(text);
                clear('face_value');
              }}
              perBond={perBond}
              error={errors.face_value}
              hint={`Leave empty to offer the whole holding (${formatSize(position.face_value)}).`}
              data-autofocus
            />
            <Stack gap={4}>
              <Select
                label="Level"
                value={level}
                allowDeselect={false}
                onChange={(value) => {
                  setLevel((value as typeof level | null) ?? 'valuation');
                  clear('price');
                  clear('yield');
                }}
                data={[
                  { value: 'valuation', label: 'Near valuation (valuation yield)' },
                  { value: 'price', label: 'Price' },
                  { value: 'yield', label: 'Yield' },
                ]}
                error={level === 'valuation' ? errors.price : undefined}
              />
              {level !== 'valuation' ? (
                <TextInput
                  label={level === 'price' ? 'Price (clean, per ₹100)' : 'Yield (%)'}
                  value={levelText}
                  onChange={(event) => {
                    setLevelText(event.currentTarget.value);
                    clear(level);
                  }}
                  inputMode="decimal"
                  autoComplete="off"
                  error={errors[level]}
                />
              ) : null}
            </Stack>
            {kind === 'exchange_rfq' ? (
              <Select
                label="Clearing corporation"
                value={clearing}
                allowDeselect={false}
                onChange={(value) => setClearing((value as typeof clearing | null) ?? 'NSCCL')}
                data={CLEARING_CORPORATIONS.map((value) => ({ value, label: value === 'NSCCL' ? 'NSCCL (NSE)' : 'ICCL (BSE)' }))}
                error={errors.clearing_corporation}
              />
            ) : null}
            <TextInput
              label="Validity (minutes, optional)"
              value={validity}
              onChange={(event) => {
                setValidity(event.currentTarget.value);
                clear('validity');
              }}
              inputMode="numeric"
              autoComplete="off"
              error={errors.validity}
            />
          </SimpleGrid>
          {kind === 'private_run'
            ? (renderCounterparties?.({
                value: counterparties,
                onChange: (ids) => {
                  setCounterparties(ids);
                  clear('counterparties');
                },
                error: errors.counterparties,
              }) ?? <FormErrorAlert message="Choosing counterparties is not available here." />)
            : null}
          <FormErrorAlert message={message} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {kind === 'private_run' ? 'Send private offer' : kind === 'exchange_rfq' ? 'Raise RFQ' : 'Post offer'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
