import { formatIndianNumber, type FinstrumentDetail } from '@dart/contracts';
import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatBondName, formatDate } from '../../../lib/format';

const FREQUENCY: Record<number, string> = { 1: 'annual', 2: 'semi-annual', 4: 'quarterly', 12: 'monthly' };

/** Marks a value filled by a documented default, with where it came from. */
function Assumed({ field, detail }: { field: string; detail: FinstrumentDetail }) {
  if (!detail.assumed.includes(field)) return null;
  return (
    <Tooltip label={detail.provenance[field] ?? 'Filled by a documented default'} multiline w={280}>
      <Badge size="xs" variant="outline" color="orange" radius="sm" ml={6} tabIndex={0} data-testid={`assumed-${field}`}>
        assumed
      </Badge>
    </Tooltip>
  );
}

function Fact({ label, field, detail, children }: { label: string; field?: string; detail: FinstrumentDetail; children: ReactNode }) {
  const source = field ? detail.provenance[field] : undefined;
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.3}>
        {label}
      </Text>
      <Group gap={0} wrap="nowrap">
        {source ? (
          <Tooltip label={`Source: ${source}`} multiline w={300}>
            <Text size="sm" fw={600} tabIndex={0} style={{ textDecoration: 'underline dotted', textUnderlineOffset: 3 }}>
              {children}
            </Text>
          </Tooltip>
        ) : (
          <Text size="sm" fw={600}>
            {children}
          </Text>
        )}
        {field ? <Assumed field={field} detail={detail} /> : null}
      </Group>
    </Stack>
  );
}

/** The security header: name, ISIN, issuer, terms, rating with agency, labels and data provenance. */
export function SecurityHeader({ detail, actions }: { detail: FinstrumentDetail; actions?: ReactNode }) {
  // A dated perpetual shows its date too: past it, the bond is matured (one rule with search and Find).
  const maturity = detail.perpetual
    ? detail.contract_parameters.maturity_date
      ? `Perpetual · ${formatDate(detail.contract_parameters.maturity_date)}`
      : 'Perpetual'
    : detail.contract_parameters.maturity_date
      ? formatDate(detail.contract_parameters.maturity_date)
      : '—';
  return (
    <Stack gap="md" mb="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
        <Stack gap={6}>
          <Group gap={6}>
            <Badge variant="light" radius="sm">
              {detail.security_type}
            </Badge>
            {detail.is_matured ? (
              <Badge color="red" variant="light" radius="sm">
                Matured
              </Badge>
            ) : null}
            {detail.contract_parameters.is_listed ? (
              <Badge color="teal" variant="light" radius="sm">
                Listed{detail.exchanges.length ? ` · ${detail.exchanges.join(', ')}` : ''}
              </Badge>
            ) : (
              <Badge color="gray" variant="light" radius="sm">
                Unlisted
              </Badge>
            )}
            {detail.perpetual ? (
              <Badge color="grape" variant="light" radius="sm">
                Perpetual
              </Badge>
            ) : null}
          </Group>
          <Title order={1} fz={26}>
            {formatBondName(detail.display_name)}
          </Title>
          <Text c="dimmed" size="sm">
            <Text span ff="monospace" c="var(--mantine-color-text)">
              {detail.identifiers.ISIN}
            </Text>
            {detail.issuer_name ? ` · ${detail.issuer_name}` : ''}
            {detail.nse_symbol ? ` · NSE ${detail.nse_symbol}${detail.nse_series ? `-${detail.nse_series}` : ''}` : ''}
            {detail.bse_scrip_code ? ` · BSE ${detail.bse_scrip_code}` : ''}
          </Text>
        </Stack>
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Group>
      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md" verticalSpacing="sm">
          <Fact label="Coupon" field="coupon_rate" detail={detail}>
            {detail.coupon_rate === null ? '—' : `${detail.coupon_rate.toFixed(2)}%`}
          </Fact>
          <Fact label="Frequency" field="coupon_frequency" detail={detail}>
            {detail.coupon_frequency === null ? '—' : (FREQUENCY[detail.coupon_frequency] ?? `${detail.coupon_frequency}× a year`)}
          </Fact>
          <Fact label="Maturity" field="maturity_date" detail={detail}>
            {maturity}
          </Fact>
          <Fact label="Rating" field="credit_rating" detail={detail}>
            {detail.credit_rating ? `${detail.credit_rating}${detail.rating_agency ? ` (${detail.rating_agency})` : ''}` : 'Unrated'}
          </Fact>
          <Fact label="Face value" field="face_value" detail={detail}>
            {detail.face_value === null ? '—' : `₹${formatIndianNumber(detail.face_value, 0)}`}
          </Fact>
          <Fact label="Day count" field="day_count" detail={detail}>
            {detail.day_count ?? '—'}
          </Fact>
          <Fact label="Issue date" field="issue_date" detail={detail}>
            {detail.issue_date ? formatDate(detail.issue_date) : '—'}
          </Fact>
          <Fact label="Listing date" field="listing_date" detail={detail}>
            {detail.listing_date ? formatDate(detail.listing_date) : '—'}
          </Fact>
          <Fact label="Call / put" field="call_schedule" detail={detail}>
            {detail.call_schedule.length || detail.put_schedule.length
              ? `${detail.call_schedule.length} call, ${detail.put_schedule.length} put`
              : 'None known'}
          </Fact>
          <Fact label="Rated on" detail={detail}>
            {detail.rating_as_of ? formatDate(detail.rating_as_of) : '—'}
          </Fact>
        </SimpleGrid>
        {detail.assumed.length ? (
          <Text size="xs" c="dimmed" mt="sm">
            Fields marked <b>assumed</b> are filled by a documented default because the source data lacks them. Hover or focus an underlined
            value to see where it came from.
          </Text>
        ) : (
          <Text size="xs" c="dimmed" mt="sm">
            Hover or focus an underlined value to see where it came from.
          </Text>
        )}
      </Paper>
    </Stack>
  );
}
