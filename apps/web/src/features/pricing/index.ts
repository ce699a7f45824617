/** The reusable pricing input of spec trading §2/§5 and the security page's price calculator. */
export { PricingInput } from './components/pricing-input';
export type { PricingInputProps } from './components/pricing-input';
export { PricingPanel } from './components/pricing-panel';
export type { PricingPanelProps, PricingValue } from './components/pricing-panel';
export { formatCleanPrice, formatYieldPercent } from './utils/pricing-input';
export type { FixedField } from './utils/pricing-input';
export { QuotePricingField } from './components/quote-pricing-field';
export type { QuotePricingFieldProps } from './components/quote-pricing-field';
