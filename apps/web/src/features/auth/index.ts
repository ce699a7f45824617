/** Sign-in, sign-out, password reset and session refresh (spec application §4, §7). */
export { signOut } from './api/sign-out';
export { useSessionRefresh } from './hooks/use-session-refresh';
export { SignInPanel } from './components/sign-in-panel';
export { ForgotPasswordForm } from './components/forgot-password-form';
export { ResetPasswordForm } from './components/reset-password-form';
export { SignedOut } from './components/signed-out';
