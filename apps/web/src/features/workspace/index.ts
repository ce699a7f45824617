/** The /dart trading workspace (panels arrive with the trading features). */
export { WorkspacePanels } from './components/workspace-panels';
