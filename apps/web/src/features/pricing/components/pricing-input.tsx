import { NOT_AVAILABLE } from '@dart/contracts';
import { Group, SegmentedControl, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useId } from 'react';
import { formatCleanPrice, formatYieldPercent, PRICING_INPUT_TEXT, type FixedField } from '../utils/pricing-input';

export interface PricingInputProps {
  fixedField: FixedField;
  value: string;
  onValueChange: (value: string) => void;
  onFixedFieldChange: (field: FixedField) => void;
  /** The other value for the info line (clean price per ₹100, yield as a fraction); null shows 'NA'. */
  info: { cleanPrice: number | null; bondYield: number | null } | null;
  /** The typed value is empty or rejected: the line shows '—', never a figure priced for another value. */
  noFigure?: boolean;
  /** Price cannot be chosen when the bond cannot be priced (spec §2 select button). */
  priceDisabled?: boolean;
  disabled?: boolean;
  /** Validation message; ignored while disabled (spec §5). */
  error?: string | null;
  loading?: boolean;
}

/** Spec §2 pricing input: a numeric field, the Yield/Price select button and the info line with the other value. */
export function PricingInput({
  fixedField,
  value,
  onValueChange,
  onFixedFieldChange,
  info,
  noFigure = false,
  priceDisabled,
  disabled,
  error,
  loading,
}: PricingInputProps) {
  const text = PRICING_INPUT_TEXT[fixedField];
  const infoId = useId();
  const other = fixedField === 'yield' ? formatCleanPrice(info?.cleanPrice) : formatYieldPercent(info?.bondYield);
  return (
    <Stack gap={6}>
      <Group gap="sm" align="flex-end" wrap="nowrap">
        <TextInput
          label={text.label}
          placeholder={text.placeholder}
          value={value}
          onChange={(event) => onValueChange(event.currentTarget.value)}
          inputMode="decimal"
          autoComplete="off"
          disabled={disabled}
          error={disabled ? undefined : error}
          required={!disabled}
          aria-describedby={infoId}
          style={{ flex: 1 }}
          ff="monospace"
          data-testid="pricing-value"
        />
        <SegmentedControl
          aria-label="Price by"
          value={fixedField}
          onChange={(next) => onFixedFieldChange(next as FixedField)}
          disabled={disabled}
          data={[
            { value: 'yield', label: 'Yield' },
            { value: 'price', label: 'Price', disabled: Boolean(priceDisabled) },
          ]}
          mb={error && !disabled ? 22 : 0}
        />
      </Group>
      <Text size="sm" c="dimmed" id={infoId} data-testid="pricing-info">
        {fixedField === 'yield' ? 'Clean price ' : 'Yield '}
        {noFigure ? (
          <Text span fw={600} c="var(--mantine-color-text)" data-testid="pricing-info-none">
            —
          </Text>
        ) : other === null ? (
          <Tooltip label={NOT_AVAILABLE.tooltip}>
            <Text span fw={600} c="var(--mantine-color-text)" tabIndex={0} aria-label={`${NOT_AVAILABLE.text}: ${NOT_AVAILABLE.tooltip}`}>
              {NOT_AVAILABLE.text}
            </Text>
          </Tooltip>
        ) : (
          <Text span fw={600} c="var(--mantine-color-text)" ff="monospace" opacity={loading ? 0.6 : 1}>
            {other}
          </Text>
        )}
      </Text>
    </Stack>
  );
}
