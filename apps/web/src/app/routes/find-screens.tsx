/** /find and /security/$id (issue 4): the pages compose the find, pricing, security and support features. */
import { HttpError } from '@dart/client';
import type { SessionUser } from '@dart/contracts';
import { Button, Grid, Group, Loader, Stack } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { PageHeader } from '../../components/ui/page-header';
import { ButtonLink } from '../../components/ui/router-links';
import { ErrorPage } from '../../features/errors';
import { FindPage } from '../../features/find';
import { RaiseRfqButton } from '../../features/market';
import { PricingPanel, type PricingValue } from '../../features/pricing';
import {
  CashflowPanel,
  CreditRationalePanel,
  DownloadsPanel,
  IssuerBondsPanel,
  reportedPricingDetails,
  SecurityHeader,
  TradesPanel,
  useFinstrument,
  type PricingDetails,
  type SecurityAccess,
} from '../../features/security';
import { RequestUpgradeButton, SupportModal } from '../../features/support';
import { homePathFor, useSession } from '../../lib/session';
import { marketSlots } from './market-slots';

function securityAccess(user: SessionUser | null): SecurityAccess {
  if (!user) return 'visitor';
  if (!user.permissions.includes('finstruments.has_security_data_access')) return 'no-permission';
  return user.client_tier === 'BASIC' ? 'basic' : 'full';
}

export function FindScreen() {
  const navigate = useNavigate();
  const open = useCallback((id: number) => void navigate({ to: '/security/$id', params: { id: String(id) } }), [navigate]);
  return (
    <>
      <PageHeader
        title="Find"
        description="Every Indian bond, T-bill, SDL and money-market instrument: filter, sort, export and compare."
      />
      <FindPage onOpen={open} />
    </>
  );
}

export function SecurityScreen({ id }: { id: string }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const detail = useFinstrument(id);
  const [pricing, setPricing] = useState<PricingDetails | null>(null);
  const [reporting, setReporting] = useState(false);
  const access = securityAccess(user);
  const open = useCallback((other: number) => void navigate({ to: '/security/$id', params: { id: String(other) } }), [navigate]);
  const onPriced = useCallback(
    (value: PricingValue) =>
      setPricing({
        fixedField: value.fixedField,
        cleanPrice: value.cleanPrice,
        bondYield: value.bondYield,
        settlementDelta: value.settlementDelta,
        settlementDate: value.settlementDate,
        quantity: value.quantity,
        total: value.considerationDetails?.total ?? null,
      }),
    [],
  );

  if (detail.isPending) {
    return (
      <Group justify="center" py={80}>
        <Loader aria-label="Loading the security" />
      </Group>
    );
  }
  if (detail.isError) {
    const status = detail.error instanceof HttpError ? detail.error.status : 500;
    return <ErrorPage status={status === 400 ? 404 : status} path={`/security/${id}`} homePath={homePathFor(user)} />;
  }
  const bond = detail.data;
  const upgrade = <RequestUpgradeButton page={`/security/${id}`} />;
  return (
    <>
      <SecurityHeader
        detail={bond}
        actions={
          <>
            <ButtonLink to="/find" variant="default" size="sm">
              Back to Find
            </ButtonLink>
            {user ? (
              <Button variant="light" color="orange" size="sm" onClick={() => setReporting(true)}>
                Report an issue
              </Button>
            ) : null}
            {/* Hidden from users who cannot trade or whose firm is not enabled for exchange RFQs. */}
            <RaiseRfqButton
              bond={{ id: bond.id, label: bond.display_name, isin: bond.identifiers.ISIN }}
              renderBondSearch={marketSlots.renderBondSearch}
              renderPricing={marketSlots.renderPricing}
            />
          </>
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="lg">
            <PricingPanel key={bond.id} finstrumentId={bond.id} onValueChange={onPriced} />
            <DownloadsPanel
              finstrumentId={bond.id}
              isin={bond.identifiers.ISIN}
              access={access}
              pricing={pricing}
              upgradeAction={upgrade}
            />
            <CreditRationalePanel finstrumentId={bond.id} access={access} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="lg">
            <CashflowPanel key={bond.id} finstrumentId={bond.id} access={access} upgradeAction={upgrade} />
            <TradesPanel key={`trades-${bond.id}`} finstrumentId={bond.id} access={access} />
            <IssuerBondsPanel key={`issuer-${bond.id}`} finstrumentId={bond.id} issuerName={bond.issuer_name} onOpen={open} />
          </Stack>
        </Grid.Col>
      </Grid>
      {user ? (
        <SupportModal
          opened={reporting}
          onClose={() => setReporting(false)}
          initialKind="report_issue"
          extras={{ isin: bond.identifiers.ISIN, bond: bond.display_name }}
          {...(pricing ? { pricingDetails: reportedPricingDetails(pricing) } : {})}
        />
      ) : null}
    </>
  );
}
