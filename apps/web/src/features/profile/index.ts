/** The signed-in user's profile: name, mobile, security and display preferences (spec application §2 /profile). */
export { ProfileDetailsForm } from './components/profile-details-form';
export { SecurityPreferences } from './components/security-preferences';
export { AccountSummary } from './components/account-summary';
export { DisplayPreferencesSection } from './components/display-preferences';
export { useDisplayPreferencesSync } from './hooks/use-display-preferences-sync';
