/** The signed-in user's profile: name, mobile, security preferences (spec application §2 /profile). */
export { ProfileDetailsForm } from './components/profile-details-form';
export { SecurityPreferences } from './components/security-preferences';
export { AccountSummary } from './components/account-summary';
