import { PolicyPage } from './building-blocks';

export function BestPracticesPage() {
  return (
    <PolicyPage
      title="Best practices"
      intro="Habits that keep quotes clear, negotiations clean and accounts safe. Share them with everyone on your desk."
      sections={[
        {
          heading: 'Quote precisely',
          body: [
            'Say whether a level is a yield or a clean price. Dart shows yields with four decimals and a percent sign and prices per 100 of face value with four decimals; quote the same way in chat.',
            'State the quantum in face value and the settlement you intend (same day or next day). A quote without settlement is an invitation, not a firm level.',
          ],
        },
        {
          heading: 'Negotiate in one thread per bond',
          body: [
            'Keep each negotiation to one bond and confirm the ISIN before agreeing terms. Many issuers have several bonds with similar names and coupons.',
            'Before you report, read back the final terms: ISIN, quantum, price or yield, settlement date and counterparty.',
          ],
        },
        {
          heading: 'Report on time',
          body: [
            'Report agreed deals on the exchange RFQ platform within the window the exchange sets, and check the settlement status the same day.',
            'If a deal cannot settle, tell your counterparty at once and record what happened.',
          ],
        },
        {
          heading: 'Protect your account',
          body: [
            'Never share a one-time password, not even with Dart staff. We will never ask for it.',
            'Turn on sign-in alerts in your profile, or switch to one-time-password sign-in. Sign out on shared computers.',
            'Operations admins should review the user list regularly and remove access for people who have moved on.',
          ],
        },
      ]}
    />
  );
}

export function ChatPolicyPage() {
  return (
    <PolicyPage
      title="Chat policy"
      intro="Dart chat is a professional channel for negotiating and discussing trades. These rules apply to every message and attachment."
      sections={[
        {
          heading: 'Professional use only',
          body: [
            'Use chat for quotes, negotiation, settlement and related market discussion. Be courteous; harassment, abuse and spam lead to suspension.',
          ],
        },
        {
          heading: 'Market conduct',
          body: [
            'Do not share unpublished price-sensitive information, spread false or misleading information, or coordinate quotes to move prices. Applicable SEBI regulations on insider trading and fraudulent and unfair trade practices apply to chat as to any other channel.',
          ],
        },
        {
          heading: 'Records and review',
          body: [
            'Messages and attachments are retained as business records. Your organisation’s compliance officers can review the conversations of their own users, and records may be produced to regulators when the law requires it.',
          ],
        },
        {
          heading: 'Counterparties and channels',
          body: [
            'You can only message people in your network or in channels you were invited to. Broadcast channels are visible only to the member who created them; recipients answer in direct chats.',
          ],
        },
        {
          heading: 'Reporting a problem',
          body: ['If you receive a message that breaks this policy, report it through Contact support in the app. We review every report.'],
        },
      ]}
    />
  );
}

export function PrivacyPage() {
  return (
    <PolicyPage
      title="Privacy"
      intro="What personal data Dart collects, why, and the choices you have. We process personal data in line with the Digital Personal Data Protection Act, 2023."
      sections={[
        {
          heading: 'What we collect',
          body: [
            'Account data: your name, work e-mail, mobile number, PAN, organisation and role.',
            'Activity data: sign-ins, the IP address they came from, and the changes you make, kept in an audit trail.',
            'Trading data you enter: quotes, runs, chats, tickets and the trades you report.',
          ],
        },
        {
          heading: 'Why we use it',
          body: [
            'To run your account, verify your identity with one-time passwords, connect you with your counterparties, report trades you ask us to report, keep the service secure, and meet legal and regulatory obligations.',
          ],
        },
        {
          heading: 'Who we share it with',
          body: [
            'The counterparties you trade with see what you send them. Exchanges and clearing corporations receive what you report. Service providers who host and operate Dart process data for us under contract. Regulators and authorities receive data when the law requires it. We do not sell personal data.',
          ],
        },
        {
          heading: 'How long we keep it',
          body: [
            'Account data is kept while your account is active. Trading records and audit entries are kept for as long as the regulations on record keeping require, then deleted.',
          ],
        },
        {
          heading: 'Your rights',
          body: [
            'You can ask for a summary of your personal data, its correction or its erasure where the law allows, and you can nominate someone to exercise these rights on your behalf. Write to us through the contact page; we answer within the time the law sets.',
          ],
        },
      ]}
    />
  );
}

export function TermsPage() {
  return (
    <PolicyPage
      title="Terms of use"
      intro="These terms govern your organisation's and your own use of Dart. By signing in you accept them."
      sections={[
        {
          heading: 'The service',
          body: [
            'Dart is software for finding, pricing and negotiating debt securities and for reporting deals to exchange platforms. Trades are agreed between counterparties and executed, reported and settled on the exchanges and their clearing corporations, under their rules.',
          ],
        },
        {
          heading: 'Who may use it',
          body: [
            'Organisations and individuals permitted by law to transact in Indian debt securities, and the people they authorise. Your organisation is responsible for the users it invites and the roles it gives them.',
          ],
        },
        {
          heading: 'Your account',
          body: [
            'Keep your credentials and one-time passwords to yourself and tell us at once if you suspect misuse. Actions taken from your account are treated as yours.',
          ],
        },
        {
          heading: 'Market information',
          body: [
            'Prices, yields and bond data shown in Dart are for information. Check the terms of any trade before you agree to it; Dart does not give investment advice.',
          ],
        },
        {
          heading: 'Acceptable use',
          body: [
            'Do not misuse the service, interfere with other users, attempt to access data you are not entitled to, or use Dart in breach of securities laws or the chat policy.',
          ],
        },
        {
          heading: 'Plans',
          body: ['Some features are part of the Premium plan. An administrator can request an upgrade from within the app.'],
        },
        {
          heading: 'Law',
          body: ['These terms are governed by the laws of India.'],
        },
      ]}
    />
  );
}
