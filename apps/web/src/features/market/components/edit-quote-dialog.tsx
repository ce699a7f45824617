import { HttpError } from '@dart/client';
import { checkFaceValue, formatIndianNumber, QuoteCreateSchema, QuoteUpdateSchema, type Quote } from '@dart/contracts';
import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';
import { useCreateQuote } from '../api/create-quote';
import { useUpdateQuote } from '../api/update-quote';
import { formatPrice, formatSizeWithCount, formatYield } from '../utils/market-format';
import { parsePricingText, type FixedField } from '../utils/quote-form';
import { Countdown } from './countdown';
import { FaceValueInput } from '../../../components/ui/face-value-input';

export interface EditQuoteDialogProps {
  quote: Quote | null;
  onClose: () => void;
}

interface EditErrors {
  quantum?: string;
  value?: string;
  validity?: string;
  form?: string;
}

const FIELD_OF: Record<string, keyof EditErrors> = {
  quantum: 'quantum',
  unit_price_stored: 'value',
  yield_stored: 'value',
  validity: 'validity',
  expiry_date_stored: 'validity',
};

/**
 * Change an own open quote: Update keeps the quote (`PUT api/eoi/update/{id}/`, re-matched in place);
 * Replace posts a new quote on the same bond, side and settlement date that replaces it (`replaces`),
 * so the old one shows as Replaced. Both validate with the server's schemas and show their messages.
 */
export function EditQuoteDialog({ quote, onClose }: EditQuoteDialogProps) {
  // Keyed by quote: each quote opens a fresh form with its own values.
  return quote ? <EditQuoteForm key={quote.id} quote={quote} onClose={onClose} /> : null;
}

const initialText = (quote: Quote, field: FixedField) =>
  field === 'yield' ? (quote.yield_stored * 100).toFixed(4) : quote.unit_price_stored.toFixed(4);

function EditQuoteForm({ quote, onClose }: { quote: Quote; onClose: () => void }) {
  const [fixedField, setFixedField] = useState<FixedField>(quote.fixed_field);
  const [valueText, setValueText] = useState(() => initialText(quote, quote.fixed_field));
  // The size as typed (face value in rupees, issue 12 §1), starting from what is left: '5,00,00,000'.
  const [quantumText, setQuantumText] = useState(() => formatIndianNumber(quote.remaining_quantum, 0));
  const [validity, setValidity] = useState<number | ''>('');
  const [errors, setErrors] = useState<EditErrors>({});
  const update = useUpdateQuote();
  const create = useCreateQuote();

  const name = `${quote.quote_type === 'BID' ? 'bid' : 'ask'} on ${quote.display_name}`;

  function serverErrors(error: unknown) {
    if (error instanceof HttpError && error.body.errors) {
      const next: EditErrors = {};
      for (const [field, messages] of Object.entries(error.body.errors)) next[FIELD_OF[field] ?? 'form'] ??= messages[0];
      setErrors(next);
    } else setErrors({ form: describeError(error) });
  }

  function pricing(): { yield_stored: number } | { unit_price_stored: number } | null {
    const parsed = parsePricingText(fixedField, valueText);
    if ('message' in parsed) {
      setErrors((old) => ({ ...old, value: parsed.message }));
      return null;
    }
    return fixedField === 'yield' ? { yield_stored: parsed.value } : { unit_price_stored: parsed.value };
  }

  /** The typed size in rupees (undefined: left empty, keep the current size), or null after showing why not. */
  function size(): number | undefined | null {
    if (quantumText.trim() === '') return undefined;
    const check = checkFaceValue(quantumText, quote.face_value_per_bond);
    if (check.ok) return check.rupees;
    setErrors((old) => ({ ...old, quantum: check.message }));
    return null;
  }

  function collect(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): boolean {
    if (issues.length === 0) return true;
    const next: EditErrors = {};
    for (const issue of issues) next[FIELD_OF[String(issue.path[0] ?? '')] ?? 'form'] ??= issue.message;
    setErrors(next);
    return false;
  }

  function submitUpdate() {
    setErrors({});
    const price = pricing();
    const quantum = size();
    if (!price || quantum === null) return;
    const body = {
      fixed_field: fixedField,
      ...price,
      ...(quantum === undefined ? {} : { quantum }),
      ...(validity === '' ? {} : { validity }),
    };
    const checked = QuoteUpdateSchema.safeParse(body);
    if (!collect(checked.success ? [] : checked.error.issues)) return;
    update.mutate(
      { id: quote.id, body },
      {
        onSuccess: (updated) => {
          showToast({
            severity: 'success',
            summary: 'Quote updated',
            detail: `${formatSizeWithCount(updated.quantum, updated.face_value_per_bond)} of ${updated.display_name}`,
          });
          onClose();
        },
        onError: serverErrors,
      },
    );
  }

  function submitReplace() {
    setErrors({});
    const price = pricing();
    const quantum = size();
    if (!price || quantum === null) return;
    const body = {
      finstrument_id: quote.finstrument_id,
      quote_type: quote.quote_type,
      quantum,
      fixed_field: fixedField,
      ...price,
      ...(validity === '' ? { validity: quote.validity } : { validity }),
      ...(quote.settlement_delta === null ? { settlement: quote.settlement_date } : { settlement_delta: quote.settlement_delta }),
      ...(quote.private && quote.counterparties ? { counterparties: quote.counterparties } : {}),
      replaces: quote.id,
    };
    const checked = QuoteCreateSchema.safeParse(body);
    if (!checked.success) {
      collect(checked.error.issues);
      return;
    }
    create.mutate(
      { body: checked.data, idempotencyKey: crypto.randomUUID() },
      {
        onSuccess: () => {
          showToast({ severity: 'success', summary: 'Quote replaced', detail: quote.display_name });
          onClose();
        },
        onError: serverErrors,
      },
    );
  }

  const busy = update.isPending || create.isPending;
  return (
    <Modal opened onClose={onClose} title={`Change your ${name}`} centered size="md">
      {/* A form: Enter in a field updates the quote (Replace stays a click); Esc closes the dialog. */}
      <form
        aria-label={`Change your ${name}`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) submitUpdate();
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Now {formatYield(quote.yield_stored)} · {formatPrice(quote.unit_price_stored)} for{' '}
            {formatSizeWithCount(quote.remaining_quantum, quote.face_value_per_bond)}; settles {quote.settlement_date}; ends in{' '}
            <Countdown until={quote.expiry_date_stored} size="sm" />
          </Text>
          {errors.form ? (
            <Alert color="red" variant="light">
              {errors.form}
            </Alert>
          ) : null}
          <SegmentedControl
            size="xs"
            value={fixedField}
            onChange={(value) => {
              const field = value as FixedField;
              setFixedField(field);
              setValueText(initialText(quote, field));
            }}
            data={[
              { value: 'yield', label: 'By yield' },
              { value: 'price', label: 'By price' },
            ]}
          />
          <TextInput
            label={fixedField === 'yield' ? 'Yield (%)' : 'Clean price (per ₹100)'}
            placeholder={fixedField === 'yield' ? 'Enter Yield' : 'Enter Price'}
            value={valueText}
            onChange={(event) => setValueText(event.currentTarget.value)}
            error={errors.value}
            inputMode="decimal"
          />
          <FaceValueInput
            value={quantumText}
            onChange={(text) => {
              setQuantumText(text);
              setErrors((old) => (old.quantum ? { ...old, quantum: undefined } : old));
            }}
            perBond={quote.face_value_per_bond}
            error={errors.quantum}
          />
          <NumberInput
            label="New validity (minutes from now)"
            description="Leave empty to keep the current end."
            value={validity}
            onChange={(v) => setValidity(typeof v === 'number' ? v : '')}
            error={errors.validity}
            allowDecimal={false}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button variant="light" onClick={submitReplace} loading={create.isPending} disabled={busy}>
              Replace
            </Button>
            <Button type="submit" loading={update.isPending} disabled={busy}>
              Update
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
