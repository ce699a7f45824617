/**
 * The /dart trading workspace (issue 12 §2): the docking layout and its saved layouts, the Build
 * Network panel and the Chat panel's frame. The panels' bodies come from the features, composed by the route.
 */
export { DockWorkspace } from './components/dock-workspace';
export type { DockWorkspaceProps, WorkspacePanelNodes } from './components/dock-workspace';
export { BuildNetworkPanel } from './components/build-network-panel';
export type { BuildNetworkActions, BuildNetworkPanelProps, BuildNetworkRow } from './components/build-network-panel';
export { ChatPanel } from './components/chat-panel';
