import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useRef } from 'react';
import { usePriceInfo, type PriceInfoRequest } from '../api/get-price-info';
import { figuresShownFor, inferFixedField, inputTextFor, validatePricingInput, type FixedField } from '../utils/pricing-input';
import { PricingInput } from './pricing-input';

export interface QuotePricingFieldProps {
  finstrumentId: number;
  settlementDelta: 0 | 1 | 2;
  fixedField: FixedField;
  value: string;
  onValueChange: (value: string) => void;
  onFixedFieldChange: (field: FixedField) => void;
  /** The form's own message (e.g. the server's), shown under the field. */
  error?: string | null;
  /** Fill an empty field with the bond's reference value once the bond is priced. */
  prefill?: boolean;
}

/**
 * The pricing input controlled by a form (quote ticket, counter): the Yield/Price select, the
 * automatic switch at the threshold, and the other value priced live at the settlement chosen.
 */
export function QuotePricingField({
  finstrumentId,
  settlementDelta,
  fixedField,
  value,
  onValueChange,
  onFixedFieldChange,
  error,
  prefill = false,
}: QuotePricingFieldProps) {
  const [debounced] = useDebouncedValue(value, 300);
  const validation = debounced.trim() === '' ? null : validatePricingInput(fixedField, debounced);
  const request = useMemo<PriceInfoRequest>(
    () => ({ settlement_delta: settlementDelta, ...(validation?.ok ? validation.wire : {}) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [settlementDelta, validation?.ok ? JSON.stringify(validation.wire) : ''],
  );
  const priceInfo = usePriceInfo(finstrumentId, request);
  const data = priceInfo.data;
  const prefilledFor = useRef<number | null>(null);

  useEffect(() => {
    if (!prefill || !data || prefilledFor.current === finstrumentId) return;
    prefilledFor.current = finstrumentId;
    if (value.trim() === '') onValueChange(inputTextFor(fixedField, data.price));
  }, [prefill, data, finstrumentId, value, fixedField, onValueChange]);

  const priceDisabled = data ? !data.can_be_priced : false;
  // An empty field or a rejected value has no other value: the request priced the reference.
  const noFigure = !figuresShownFor(fixedField, value, debounced);
  const typedError = value.trim() !== '' ? validatePricingInput(fixedField, value) : null;
  return (
    <PricingInput
      fixedField={fixedField}
      value={value}
      onValueChange={(text) => {
        const inferred = inferFixedField(text);
        if (inferred && inferred !== fixedField && !(inferred === 'price' && priceDisabled)) onFixedFieldChange(inferred);
        onValueChange(text);
      }}
      onFixedFieldChange={(field) => {
        if (field === fixedField) return;
        onFixedFieldChange(field);
        onValueChange(data ? inputTextFor(field, data.price) : '');
      }}
      info={data ? { cleanPrice: data.price.unit_clean_price, bondYield: data.price.bond_yield } : null}
      noFigure={noFigure}
      priceDisabled={priceDisabled}
      error={error ?? (typedError && !typedError.ok ? typedError.message : null)}
      loading={priceInfo.isFetching}
    />
  );
}
