/** The WhatsApp link in the web app (issue 16 §2): the user's own consent switch and the firm's message log. */
export { WhatsAppConsentSection } from './components/whatsapp-consent-section';
export { WhatsAppMessageLog } from './components/whatsapp-message-log';
