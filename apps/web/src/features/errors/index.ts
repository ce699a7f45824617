/** Error pages by HTTP status (spec application §2). */
export { ErrorPage } from './components/error-page';
export type { ErrorPageProps } from './components/error-page';
