/**
 * Transactions (issue 13, `/client/transactions`): the firm's orders and procurement orders in an AG Grid blotter,
 * filtered and paged on the server, live over `ws/trade/d/`, with CSV/XLSX export, a contract note per trade and
 * the order actions for traders.
 */
export { TransactionsPage } from './components/transactions-page';
