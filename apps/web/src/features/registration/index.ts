/** Client registration with e-mail verification and invite validation (spec §7). */
export { inviteQueryOptions, validateInvite } from './api/validate-invite';
export type { InviteDetails } from './api/validate-invite';
export { RegistrationFlow } from './components/registration-flow';
