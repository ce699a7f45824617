import { type Position } from '@dart/contracts';
import { Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { formatPrice, formatSize } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { editValuationCost, useBookMutation } from '../api/inventory-commands';
import { formatPnl, money } from '../utils/book-rows';
import { readNumber, serverErrors } from '../utils/form';

/**
 * "Edit valuation cost": the holding's cost per ₹100 after review. The unrealised P&L it gives is shown as it is
 * typed (market value − face × cost ÷ 100); the server's answer replaces it.
 */
export function EditCostDialog({ position, onClose }: { position: Position | null; onClose: () => void }) {
  if (!position) return null;
  return <EditCostForm key={position.id} position={position} onClose={onClose} />;
}

function EditCostForm({ position, onClose }: { position: Position; onClose: () => void }) {
  const [text, setText] = useState(position.average_cost.toFixed(4));
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const [key] = useState(() => crypto.randomUUID());
  const mutation = useBookMutation(editValuationCost);
  const cost = readNumber(text);
  const preview = cost === null || position.market_value === null ? null : position.market_value - (position.face_value * cost) / 100;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (cost === null || cost <= 0) {
      setError({ field: 'valuation_cost', message: 'Enter the valuation cost as a clean price per ₹100, e.g. 101.25.' });
      return;
    }
    try {
      const updated = await mutation.mutateAsync({ variables: { position_id: position.id, valuation_cost: cost }, key });
      showToast({
        severity: 'success',
        summary: 'Valuation cost saved',
        detail: `${position.display_name}: unrealised P&L ${formatPnl(updated.unrealised_pnl)}.`,
      });
      onClose();
    } catch (caught) {
      const { fields, message } = serverErrors(caught);
      setError({ ...(fields.valuation_cost ? { field: 'valuation_cost' } : {}), message: fields.valuation_cost ?? message });
    }
  }

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>Edit valuation cost</Text>} size="md">
      <form onSubmit={submit} noValidate aria-label="Edit valuation cost">
        <Stack gap="sm">
          <Text size="sm">
            {position.display_name} · {position.isin} · {position.account} · {formatSize(position.face_value)}
          </Text>
          <Table fz="sm" withRowBorders={false} verticalSpacing={2}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Td c="dimmed">Current valuation cost</Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {formatPrice(position.average_cost)}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td c="dimmed">Valuation price</Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {formatPrice(position.valuation.clean_price)}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td c="dimmed">Market value</Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {money(position.market_value)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <TextInput
            label="Valuation cost (clean, per ₹100)"
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setError(null);
            }}
            inputMode="decimal"
            autoComplete="off"
            error={error?.field === 'valuation_cost' ? error.message : undefined}
            description={
              preview === null
                ? 'Not valued: the P&L shows once a reference price exists.'
                : `Unrealised P&L at this cost: ${formatPnl(preview)}`
            }
            data-autofocus
          />
          {error && !error.field ? <FormErrorAlert message={error.message} /> : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              Save valuation cost
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
