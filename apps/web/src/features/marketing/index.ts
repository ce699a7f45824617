/** Public pages: landing, about, product pages and policies (spec §2 public routes). */
export { LandingPage } from './components/landing-page';
export { AboutPage } from './components/about-page';
export { BestPracticesPage, ChatPolicyPage, PrivacyPage, TermsPage } from './components/policy-pages';
export { ProductDartPage, ProductFindPage } from './components/product-pages';
export { ContactIntro } from './components/contact-intro';
