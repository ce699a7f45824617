/** Exchange credentials (ops admins; spec §2 /exchange-credentials, issue 14). */
export { ExchangeCredentialsPanel } from './components/exchange-credentials-panel';
