/** Find (issue 4): the bond search box and the /find page (filters, the universe grid, export, compare). */
export { BondSearchBox } from './components/bond-search-box';
export type { BondSearchBoxProps } from './components/bond-search-box';
export { FindPage } from './components/find-page';
