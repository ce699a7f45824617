import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { canTrade, useSession } from '../../../lib/session';
import { useNetworkStats } from '../api/get-network-stats';
import { useAgents } from '../api/list-agents';
import { useFacilitators } from '../api/list-facilitators';
import { usePartners } from '../api/list-partners';
import { buildNetworkSections, type NetworkSections } from '../utils/network-sections';

/** Keystrokes settle for this long before the directories are asked again. */
const SEARCH_DEBOUNCE_MS = 250;

export interface BuildNetwork {
  sections: NetworkSections;
  search: string;
  onSearchChange: (search: string) => void;
  loading: boolean;
  /** Partners need the view-partners permission (`client.view_client`); without it the section says so. */
  canViewPartners: boolean;
  /** The stats are read by traders only (`client.can_trade`). */
  canTrade: boolean;
}

/** The Build Network panel's data: the four directory calls under one search. */
export function useBuildNetwork(): BuildNetwork {
  const { user } = useSession();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const trader = canTrade(user);
  const canViewPartners = user?.permissions.includes('client.view_client') ?? false;
  const stats = useNetworkStats(trader);
  const partners = usePartners(debounced, canViewPartners);
  const facilitators = useFacilitators(debounced);
  const agents = useAgents(debounced);
  const sections = useMemo(
    () =>
      buildNetworkSections({
        search: debounced,
        stats: stats.data?.results ?? [],
        partners: partners.data?.results ?? [],
        facilitators: facilitators.data?.results ?? [],
        agents: agents.data?.results ?? [],
      }),
    [debounced, stats.data, partners.data, facilitators.data, agents.data],
  );
  const loading = stats.isFetching || partners.isFetching || facilitators.isFetching || agents.isFetching;
  return { sections, search, onSearchChange: setSearch, loading, canViewPartners, canTrade: trader };
}
