import { DEFAULT_SETTLEMENT_DELTA, QUOTE_DEFAULTS, SETTLEMENT_DELTAS } from '@dart/contracts';
import { Checkbox, CloseButton, Group, NumberInput, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useId, useState, type Dispatch, type SetStateAction } from 'react';
import { useFaceValuePerBond } from '../api/get-bond-size';
import { FaceValueInput } from '../../../components/ui/face-value-input';
import type { QuoteFormErrors, QuoteFormField, QuoteFormValues } from '../utils/quote-form';
import type { MarketSlots, PickedBond } from './market-slots';

/** The error a field's edit clears: a message stays only until the user changes what it is about. */
const ERROR_OF: Partial<Record<keyof QuoteFormValues, QuoteFormField>> = {
  valueText: 'value',
  fixedField: 'value',
  quantum: 'quantum',
  validity: 'validity',
  settlementDelta: 'settlementDelta',
};

/** A new quote's starting values: a bid, by yield, the default validity and settlement. */
export const INITIAL_QUOTE_VALUES: QuoteFormValues = {
  quoteType: 'BID',
  finstrumentId: null,
  fixedField: 'yield',
  valueText: '',
  quantum: '',
  validity: QUOTE_DEFAULTS.validity_minutes,
  settlementDelta: DEFAULT_SETTLEMENT_DELTA as 0 | 1 | 2,
  counterparties: [],
  whatsappConsent: false,
};

/** What a form holding the quote fields keeps: the values, the picked bond and the field errors. */
export interface QuoteFieldsState<Errors extends QuoteFormErrors = QuoteFormErrors> {
  values: QuoteFormValues;
  setValues: Dispatch<SetStateAction<QuoteFormValues>>;
  bond: PickedBond | null;
  setBond: (bond: PickedBond | null) => void;
  errors: Errors;
  setErrors: Dispatch<SetStateAction<Errors>>;
}

/** The state of the quote fields for the ticket, the private run and the RFQ dialog; spread it into QuoteFields. */
export function useQuoteFieldsState<Errors extends QuoteFormErrors = QuoteFormErrors>(
  initialValues: QuoteFormValues = INITIAL_QUOTE_VALUES,
  initialBond: PickedBond | null = null,
): QuoteFieldsState<Errors> {
  const [values, setValues] = useState<QuoteFormValues>(initialValues);
  const [bond, setBond] = useState<PickedBond | null>(initialBond);
  const [errors, setErrors] = useState<Errors>({} as Errors);
  return { values, setValues, bond, setBond, errors, setErrors };
}

export interface QuoteFieldsProps extends QuoteFieldsState, Pick<MarketSlots, 'renderBondSearch' | 'renderPricing'> {}

/**
 * The fields every new quote has, shared by the quote ticket and the private run sent from a chat:
 * side, bond (search, then the picked bond with "Change bond"), yield or price, size (face value in
 * rupees with lakh/crore shorthand and the bond count beneath), validity and settlement. Who the quote
 * goes to is the caller's part.
 */
export function QuoteFields({ values, setValues, bond, setBond, errors, setErrors, renderBondSearch, renderPricing }: QuoteFieldsProps) {
  const settlementLabelId = useId();
  const perBond = useFaceValuePerBond(bond?.id ?? null);
  const set = <K extends keyof QuoteFormValues>(key: K, value: QuoteFormValues[K]) => {
    setValues((old) => ({ ...old, [key]: value }));
    const field = ERROR_OF[key];
    if (field) setErrors((old) => (old[field] ? { ...old, [field]: undefined } : old));
  };
  return (
    <>
      <SegmentedControl
        aria-label="Side"
        fullWidth
        value={values.quoteType}
        onChange={(value) => set('quoteType', value as 'BID' | 'ASK')}
        color={values.quoteType === 'BID' ? 'teal' : 'red'}
        data={[
          { value: 'BID', label: 'Bid (buy)' },
          { value: 'ASK', label: 'Ask (sell)' },
        ]}
      />
      {bond ? (
        <Paper withBorder radius="sm" px="sm" py={6}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} lineClamp={1} data-testid="ticket-bond">
                {bond.label}
              </Text>
              <Text size="xs" c="dimmed">
                {bond.isin}
              </Text>
            </Stack>
            <CloseButton
              aria-label="Change bond"
              onClick={() => {
                setBond(null);
                setValues((old) => ({ ...old, finstrumentId: null, valueText: '' }));
              }}
            />
          </Group>
        </Paper>
      ) : (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Bond
          </Text>
          {renderBondSearch((picked) => {
            setBond(picked);
            setValues((old) => ({ ...old, finstrumentId: picked.id, valueText: '' }));
            setErrors((old) => ({ ...old, finstrumentId: undefined, value: undefined }));
          })}
          {errors.finstrumentId ? (
            <Text size="xs" c="red" role="alert">
              {errors.finstrumentId}
            </Text>
          ) : null}
        </Stack>
      )}
      {bond
        ? renderPricing({
            finstrumentId: bond.id,
            settlementDelta: values.settlementDelta,
            fixedField: values.fixedField,
            value: values.valueText,
            onValueChange: (text) => set('valueText', text),
            onFixedFieldChange: (field) => set('fixedField', field),
            error: errors.value ?? null,
            prefill: true,
          })
        : null}
      <Group grow align="flex-start" gap="sm">
        <FaceValueInput
          value={values.quantum}
          onChange={(text) => set('quantum', text)}
          perBond={perBond}
          error={errors.quantum}
          required
        />
        <NumberInput
          label="Validity (minutes)"
          value={values.validity}
          onChange={(value) => set('validity', typeof value === 'number' ? value : value === '' ? '' : Number(value))}
          allowDecimal={false}
          allowNegative={false}
          error={errors.validity}
        />
      </Group>
      <Stack gap={4}>
        <Text size="sm" fw={500} id={settlementLabelId}>
          Settlement
        </Text>
        <SegmentedControl
          aria-labelledby={settlementLabelId}
          value={String(values.settlementDelta)}
          onChange={(value) => set('settlementDelta', Number(value) as 0 | 1 | 2)}
          data={SETTLEMENT_DELTAS.map((delta) => ({ value: String(delta), label: `T+${delta}` }))}
        />
        {errors.settlementDelta ? (
          <Text size="xs" c="red">
            {errors.settlementDelta}
          </Text>
        ) : null}
      </Stack>
      {/* The quote's whatsapp_consent (spec): ticked, the server records the consent from this quote. */}
      <Checkbox
        size="xs"
        label="Send me alerts on WhatsApp"
        checked={values.whatsappConsent ?? false}
        onChange={(event) => set('whatsappConsent', event.currentTarget.checked)}
      />
    </>
  );
}
