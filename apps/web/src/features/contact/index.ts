/** The public contact form (spec §2 /contact). */
export { ContactForm } from './components/contact-form';
