/** The signed-in session: shared by every feature and the route guards (spec application §3, §4). */
export { completeSignIn, getSession, sessionQueryOptions, setSessionUser, useSession, useSessionUser } from './session';
export type { AuthStatus } from './session';
export { homePathFor, safeRedirectPath, toAccessSubject } from './access-subject';
export { canTrade, canWrite, useCanTrade, useCanWrite } from './write-access';
