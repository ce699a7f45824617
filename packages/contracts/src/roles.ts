/**
 * Roles, permissions and the access rules of spec application §6, kept once here and used by
 * both the server (route policies) and the web (route guards).
 */
export const ROLES = ['user', 'clientdealer', 'clientviewer', 'complianceofficer', 'clientopsadmin', 'backoffice'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  user: 'Basic',
  clientdealer: 'Dealer',
  clientviewer: 'Viewer',
  complianceofficer: 'Compliance Officer',
  clientopsadmin: 'OpsAdmin',
  backoffice: 'Back Office',
};

export const PERMISSIONS = [
  'inventory.has_inventory_access',
  'finstruments.has_security_data_access',
  'client.view_client',
  'client.can_trade',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const PERMISSION_LABELS: Record<Permission, string> = {
  'inventory.has_inventory_access': 'Inventory page',
  'finstruments.has_security_data_access': 'View security data',
  'client.view_client': 'View partners',
  'client.can_trade': 'Trade access',
};

export const CLIENT_TYPES = ['CORP', 'CORP-P', 'INDV', 'INDV-P'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];
export const CLIENT_MODES = ['SOFTWARE', 'BROKING'] as const;
export type ClientMode = (typeof CLIENT_MODES)[number];
export const CLIENT_SEGMENTS = ['INSTITUTIONAL', 'NON_INSTITUTIONAL', 'WDM'] as const;
export type ClientSegment = (typeof CLIENT_SEGMENTS)[number];
export const CLIENT_TIERS = ['BASIC', 'PREMIUM'] as const;
export type ClientTier = (typeof CLIENT_TIERS)[number];
export const INDIVIDUAL_CATEGORIES = {
  RTL: 'Retail',
  HUF: 'Hindu Undivided Family',
  FMO: 'Family Office',
  SWM: 'Wealth Manager',
  HNI: 'HNI',
} as const;
export type IndividualCategory = keyof typeof INDIVIDUAL_CATEGORIES;
export const USER_ACCOUNT_STATUSES = ['active', 'inactive', 'invited'] as const;
export type UserAccountStatus = (typeof USER_ACCOUNT_STATUSES)[number];

/**
 * Exchange codes. The spec says allowed exchanges default to two exchanges without naming the
 * codes; we use the clearing corporations' venue codes NSE (NSCCL) and BSE (ICCL).
 */
export const EXCHANGES = ['NSE', 'BSE'] as const;
export type Exchange = (typeof EXCHANGES)[number];
export const DEFAULT_ALLOWED_EXCHANGES: readonly Exchange[] = ['NSE', 'BSE'];

/** The minimal view of a signed-in principal that access checks need. */
export interface AccessSubject {
  roles: readonly Role[];
  permissions: readonly Permission[];
  clientTier: ClientTier;
  clientType?: ClientType;
  isBroker?: boolean;
  allowedExchanges?: readonly Exchange[];
}

/** A role check passes if the user has any listed role (spec §6). Empty list passes. */
export function hasAnyRole(subject: Pick<AccessSubject, 'roles'>, roles: readonly Role[]): boolean {
  return roles.length === 0 || roles.some((role) => subject.roles.includes(role));
}

/** A permission check requires all listed permissions (spec §6). */
export function hasAllPermissions(subject: Pick<AccessSubject, 'permissions'>, permissions: readonly Permission[]): boolean {
  return permissions.every((permission) => subject.permissions.includes(permission));
}

/** A compliance user has exactly two roles, one of them compliance officer. */
export function isComplianceUser(subject: Pick<AccessSubject, 'roles'>): boolean {
  return subject.roles.length === 2 && subject.roles.includes('complianceofficer');
}

/** A viewer has only the viewer role. */
export function isViewerOnly(subject: Pick<AccessSubject, 'roles'>): boolean {
  return subject.roles.length === 1 && subject.roles[0] === 'clientviewer';
}

/** Compliance and viewer users are view-only: every business write they attempt is refused. */
export function isViewOnly(subject: Pick<AccessSubject, 'roles'>): boolean {
  return isComplianceUser(subject) || isViewerOnly(subject);
}

/**
 * Compliance-only users land on surveillance; a user holding compliance with a trading role
 * is not "compliance-only". We read "compliance-only" as isComplianceUser (spec §6 definition).
 */
export function homeRouteFor(subject: Pick<AccessSubject, 'roles'>): '/surveillance' | '/dart' {
  return isComplianceUser(subject) ? '/surveillance' : '/dart';
}

export const isBasicTier = (subject: Pick<AccessSubject, 'clientTier'>): boolean => subject.clientTier === 'BASIC';
export const isPremiumTier = (subject: Pick<AccessSubject, 'clientTier'>): boolean => subject.clientTier === 'PREMIUM';
export const isClientOpsAdmin = (subject: Pick<AccessSubject, 'roles'>): boolean => subject.roles.includes('clientopsadmin');
export const isIndividualClient = (subject: Pick<AccessSubject, 'clientType'>): boolean =>
  subject.clientType === 'INDV' || subject.clientType === 'INDV-P';
export const isBrokerClient = (subject: Pick<AccessSubject, 'isBroker'>): boolean => subject.isBroker === true;
/** Only-ICCL: the client may use BSE (ICCL) and nothing else. */
export const isOnlyIccl = (subject: Pick<AccessSubject, 'allowedExchanges'>): boolean =>
  subject.allowedExchanges?.length === 1 && subject.allowedExchanges[0] === 'BSE';

/**
 * Price override role. The spec names the check but not the value; we grant price override to
 * dealers of broker firms and to ops admins who also deal (documented in README, decisions).
 */
export function canOverridePrice(subject: Pick<AccessSubject, 'roles' | 'isBroker'>): boolean {
  return subject.roles.includes('clientdealer') && (subject.isBroker === true || subject.roles.includes('clientopsadmin'));
}

/**
 * The access policy every HTTP route and WebSocket handler declares. The server refuses to start
 * when a route has none.
 * - `public`: anyone, signed in or not.
 * - `authenticated`: any signed-in user; optional `roles` (any of), `permissions` (all of).
 * - `write`: a business write; view-only users (compliance, viewer) get 403.
 * - `premium`: BASIC-tier clients get 402.
 */
export type AccessPolicy =
  | { kind: 'public' }
  | {
      kind: 'authenticated';
      roles?: readonly Role[];
      permissions?: readonly Permission[];
      write?: boolean;
      premium?: boolean;
    };

export type AccessDecision = 'allow' | 'unauthenticated' | 'forbidden' | 'view_only' | 'premium_required';

/** Evaluates a policy: the same answer on server (HTTP status) and web (error page). */
export function evaluateAccess(policy: AccessPolicy, subject: AccessSubject | null): AccessDecision {
  if (policy.kind === 'public') return 'allow';
  if (!subject) return 'unauthenticated';
  if (policy.roles && !hasAnyRole(subject, policy.roles)) return 'forbidden';
  if (policy.permissions && !hasAllPermissions(subject, policy.permissions)) return 'forbidden';
  if (policy.write && isViewOnly(subject)) return 'view_only';
  if (policy.premium && isBasicTier(subject)) return 'premium_required';
  return 'allow';
}
