import {
  checkFaceValue,
  DEFAULT_SETTLEMENT_DELTA,
  formatIndianNumber,
  formatRupees,
  PRICING_MESSAGES,
  priceSourceLabel,
  SETTLEMENT_DELTAS,
  type ConsiderationDetails,
} from '@dart/contracts';
import { Alert, Badge, Group, Loader, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { describeError } from '../../../lib/errors';
import { usePriceInfo, type PriceInfoRequest } from '../api/get-price-info';
import {
  figuresShownFor,
  inferFixedField,
  inputTextFor,
  isPricedQuantity,
  validatePricingInput,
  type FixedField,
} from '../utils/pricing-input';
import { PricingInput } from './pricing-input';
import { FaceValueInput } from '../../../components/ui/face-value-input';
import { formatDate } from '../../../lib/format';

/** The pricing value of spec trading §3, reported to the page (report issue, quote sheet). */
export interface PricingValue {
  cleanPrice: number | null;
  bondYield: number | null;
  fixedField: FixedField;
  settlementDelta: number;
  settlementDate: string | null;
  quantity: number;
  canBePriced: boolean;
  allowPriceModification: boolean;
  considerationDetails: ConsiderationDetails | null;
}

export interface PricingPanelProps {
  finstrumentId: number;
  onValueChange?: (value: PricingValue) => void;
  /** The size the consideration starts at, as typed (face value in rupees, lakh/crore shorthand). */
  defaultSize?: string;
}

/** A dealing size to start from (issue 12 §1): ₹5 Cr, not one bond. */
export const DEFAULT_CALCULATOR_SIZE = '5cr';

/**
 * Yield/price calculator with settlement T+0/T+1/T+2 and the consideration for a size in face value
 * (issue 12 §1; the pricing API prices units, so the size is sent as its number of bonds).
 */
export function PricingPanel({ finstrumentId, onValueChange, defaultSize = DEFAULT_CALCULATOR_SIZE }: PricingPanelProps) {
  const [fixedField, setFixedField] = useState<FixedField>('yield');
  // null: the user has not typed; the field shows the server's (reference) value.
  const [draft, setDraft] = useState<string | null>(null);
  const [settlementDelta, setSettlementDelta] = useState<number>(DEFAULT_SETTLEMENT_DELTA);
  const [sizeText, setSizeText] = useState(defaultSize);
  // Rupees of face value in one bond: the pricing answer's unit (₹100 for a G-sec, the bond's face value else).
  const [perBond, setPerBond] = useState<number | undefined>(undefined);
  const size = checkFaceValue(sizeText, perBond);
  // Bonds for the consideration; NaN (not priced) while the size is refused or the bond's unit not yet known.
  const quantity = size.ok && perBond ? Math.round(size.rupees / perBond) : Number.NaN;
  const [debouncedDraft] = useDebouncedValue(draft, 300);
  const [debouncedQuantity] = useDebouncedValue(quantity, 300);

  const validation = draft === null ? null : validatePricingInput(fixedField, draft);
  const debouncedValidation = debouncedDraft === null ? null : validatePricingInput(fixedField, debouncedDraft);
  const request = useMemo<PriceInfoRequest>(() => {
    const base: PriceInfoRequest = { settlement_delta: settlementDelta as 0 | 1 | 2 };
    if (isPricedQuantity(debouncedQuantity)) base.quantity = debouncedQuantity;
    return debouncedValidation?.ok ? { ...base, ...debouncedValidation.wire } : base;
  }, [settlementDelta, debouncedQuantity, debouncedValidation]);

  const priceInfo = usePriceInfo(finstrumentId, request);
  const data = priceInfo.data;
  // Kept once known (a refused price answers without a consideration); set during render, React's derived-state pattern.
  const unit = data?.consideration_details?.face_value_per_unit;
  if (unit && unit > 0 && unit !== perBond) setPerBond(unit);
  const inputDisabled = data ? !data.allow_price_modification : false;
  const priceDisabled = data ? !data.can_be_priced : false;
  const shown = draft ?? (data ? inputTextFor(fixedField, data.price) : '');
  // No figure for an empty or rejected value: the server priced the reference, not what is typed.
  const figures = figuresShownFor(fixedField, draft, debouncedDraft);
  const consideration = figures && isPricedQuantity(quantity) ? (data?.consideration_details ?? null) : null;

  useEffect(() => {
    if (!data || !onValueChange) return;
    onValueChange({
      cleanPrice: figures ? data.price.unit_clean_price : null,
      bondYield: figures ? data.price.bond_yield : null,
      fixedField,
      settlementDelta,
      settlementDate: data.price.settlement_date,
      quantity: data.consideration_details?.quantity ?? quantity,
      canBePriced: data.can_be_priced,
      allowPriceModification: data.allow_price_modification,
      considerationDetails: consideration,
    });
  }, [data, figures, consideration, fixedField, settlementDelta, quantity, onValueChange]);

  function onTyped(text: string) {
    const inferred = inferFixedField(text);
    if (inferred && inferred !== fixedField && !(inferred === 'price' && priceDisabled)) setFixedField(inferred);
    setDraft(text);
  }

  function onFieldChosen(field: FixedField) {
    if (field === fixedField) return;
    setFixedField(field);
    setDraft(data ? inputTextFor(field, data.price) : null);
  }

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="pricing-title">
      <Stack gap="md">
        <Group justify="space-between" align="center">
          <Title order={2} fz="lg" id="pricing-title">
            Price calculator
          </Title>
          {priceInfo.isFetching ? <Loader size="xs" aria-label="Pricing" /> : null}
        </Group>
        <PricingInput
          fixedField={fixedField}
          value={shown}
          onValueChange={onTyped}
          onFixedFieldChange={onFieldChosen}
          info={data ? { cleanPrice: data.price.unit_clean_price, bondYield: data.price.bond_yield } : null}
          noFigure={!figures}
          priceDisabled={priceDisabled}
          disabled={inputDisabled}
          error={validation && !validation.ok ? validation.message : null}
          loading={priceInfo.isFetching}
        />
        <Group gap="md" align="flex-end" wrap="wrap">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="settlement-label">
              Settlement
            </Text>
            <SegmentedControl
              aria-labelledby="settlement-label"
              value={String(settlementDelta)}
              onChange={(value) => setSettlementDelta(Number(value))}
              data={SETTLEMENT_DELTAS.map((delta) => ({ value: String(delta), label: `T+${delta}` }))}
            />
          </Stack>
          <Stack gap={4}>
            <Text size="xs" c="dimmed">
              Settlement date
            </Text>
            <Text fw={600} data-testid="settlement-date">
              {data?.price.settlement_date ? formatDate(data.price.settlement_date) : '—'}
            </Text>
          </Stack>
          <FaceValueInput
            value={sizeText}
            onChange={setSizeText}
            perBond={perBond}
            w={220}
            error={sizeText.trim() === '' ? 'Enter a size' : undefined}
          />
        </Group>

        {priceInfo.isError ? (
          <Alert color="red" variant="light" title="Could not price this bond">
            {describeError(priceInfo.error)}
          </Alert>
        ) : null}
        {data && !data.can_be_priced ? (
          <Alert color="yellow" variant="light" title={PRICING_MESSAGES.notPriceable}>
            {data.not_priceable_reason ?? 'No defensible reference price exists for this bond.'}
            {data.allow_price_modification ? ' You can still enter a yield.' : ''}
          </Alert>
        ) : null}
        {data?.warnings.map((warning) => (
          <Alert key={warning} color="yellow" variant="light">
            {warning}
          </Alert>
        ))}

        {consideration ? <ConsiderationTable details={consideration} /> : null}
        {data?.reference ? (
          <Text size="xs" c="dimmed">
            Reference: {priceSourceLabel(data.reference.source)} of {formatDate(data.reference.price_date)}
            {data.reference.bond_yield !== null ? ` at ${(data.reference.bond_yield * 100).toFixed(4)}%` : ''}
            {data.price.yield_compounding ? ` · yield compounding ${data.price.yield_compounding}` : ''}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

function ConsiderationTable({ details }: { details: ConsiderationDetails }) {
  const rows: [string, string][] = [
    ['Face amount', formatRupees(details.face_amount)],
    ['Principal', formatRupees(details.principal)],
    [`Accrued interest (${details.accrued_days} days)`, formatRupees(details.accrued_interest)],
    ['Consideration', formatRupees(details.consideration)],
    ['Stamp duty', formatRupees(details.stamp_duty)],
  ];
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          Consideration
        </Text>
        <Badge variant="light" color="gray" radius="sm">
          {formatIndianNumber(details.quantity, 0)} × {formatRupees(details.face_value_per_unit, 0)} face
        </Badge>
      </Group>
      <Table withRowBorders={false} verticalSpacing={4} aria-label="Consideration" data-testid="consideration">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th fw={400} c="dimmed" scope="row">
                {label}
              </Table.Th>
              <Table.Td ta="right" ff="monospace">
                {value}
              </Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
            <Table.Th scope="row">Total</Table.Th>
            <Table.Td ta="right" ff="monospace" fw={700} data-testid="consideration-total">
              {formatRupees(details.total)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
