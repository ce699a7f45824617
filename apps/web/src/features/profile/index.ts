/** The signed-in user's profile (spec application §2 /profile) and the organisation's details (/client/profile). */
export { ProfileDetailsForm } from './components/profile-details-form';
export { SecurityPreferences } from './components/security-preferences';
export { AccountSummary } from './components/account-summary';
export { DisplayPreferencesSection } from './components/display-preferences';
export { useDisplayPreferencesSync } from './hooks/use-display-preferences-sync';
export { OrganisationDetailsForm } from './components/organisation-details-form';
