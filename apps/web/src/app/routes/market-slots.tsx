/** The inputs the market feature borrows from find (bond search) and pricing (pricing input). */
import { BondSearchBox } from '../../features/find';
import type { MarketSlots } from '../../features/market';
import { QuotePricingField } from '../../features/pricing';
import { RequestUpgradeButton } from '../../features/support';

export const marketSlots: MarketSlots = {
  renderBondSearch: (onSelect) => (
    <BondSearchBox
      label="Bond for the quote"
      w="100%"
      onSelect={(finstrument) => onSelect({ id: finstrument.id, label: finstrument.label, isin: finstrument.identifiers.ISIN })}
    />
  ),
  renderPricing: (props) => <QuotePricingField {...props} />,
  renderUpgrade: (page) => <RequestUpgradeButton page={page} />,
};
