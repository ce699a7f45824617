/**
 * Named layouts of the /dart dock (issue 12 §2): Trader (the default), Sales and Compact. Each is
 * data: the panels in the order they are added, where each goes, and its starting size in pixels.
 */
import { WORKSPACE_PANELS, type WorkspacePanelId } from '@dart/contracts';

export type PresetName = 'trader' | 'sales' | 'compact';

export interface PresetPlacement {
  id: WorkspacePanelId;
  /** Beside or inside (a tab of) an earlier panel; the first placement has none. */
  position?: { referencePanel: WorkspacePanelId; direction: 'left' | 'right' | 'above' | 'below' | 'within' };
  /** Added as a tab behind the reference panel's active one. */
  inactive?: boolean;
  initialWidth?: number;
  initialHeight?: number;
}

export interface Preset {
  name: PresetName;
  label: string;
  description: string;
  placements: readonly PresetPlacement[];
}

const tab = (id: WorkspacePanelId, referencePanel: WorkspacePanelId): PresetPlacement => ({
  id,
  position: { referencePanel, direction: 'within' },
  inactive: true,
});

export const PRESETS: readonly Preset[] = [
  {
    name: 'trader',
    label: 'Trader',
    description: 'Ticket and matches on the left, runs and RFQs in the middle, chat and negotiations on the right',
    placements: [
      { id: 'public-runs' },
      { id: 'quote-ticket', position: { referencePanel: 'public-runs', direction: 'left' }, initialWidth: 330 },
      { id: 'chat', position: { referencePanel: 'public-runs', direction: 'right' }, initialWidth: 380 },
      tab('build-network', 'chat'),
      tab('market-depth', 'public-runs'),
      { id: 'private-runs', position: { referencePanel: 'public-runs', direction: 'below' }, initialHeight: 260 },
      { id: 'rfq-quotes', position: { referencePanel: 'private-runs', direction: 'right' } },
      { id: 'negotiations', position: { referencePanel: 'chat', direction: 'below' }, initialHeight: 280 },
      { id: 'clusters', position: { referencePanel: 'quote-ticket', direction: 'below' }, initialHeight: 240 },
      tab('ticketing', 'clusters'),
    ],
  },
  {
    name: 'sales',
    label: 'Sales',
    description: 'Chat and your network first, private runs beside them, the ticket on the right',
    placements: [
      { id: 'chat' },
      tab('build-network', 'chat'),
      { id: 'private-runs', position: { referencePanel: 'chat', direction: 'right' } },
      tab('public-runs', 'private-runs'),
      tab('market-depth', 'private-runs'),
      { id: 'quote-ticket', position: { referencePanel: 'private-runs', direction: 'right' }, initialWidth: 330 },
      { id: 'negotiations', position: { referencePanel: 'private-runs', direction: 'below' }, initialHeight: 280 },
      { id: 'rfq-quotes', position: { referencePanel: 'negotiations', direction: 'right' } },
      { id: 'clusters', position: { referencePanel: 'quote-ticket', direction: 'below' }, initialHeight: 280 },
      tab('ticketing', 'clusters'),
    ],
  },
  {
    name: 'compact',
    label: 'Compact',
    description: 'Two columns of tabs for a small screen: runs over RFQs and negotiations, chat beside',
    placements: [
      { id: 'public-runs' },
      tab('private-runs', 'public-runs'),
      tab('market-depth', 'public-runs'),
      { id: 'chat', position: { referencePanel: 'public-runs', direction: 'right' }, initialWidth: 360 },
      tab('build-network', 'chat'),
      tab('quote-ticket', 'chat'),
      { id: 'rfq-quotes', position: { referencePanel: 'public-runs', direction: 'below' }, initialHeight: 300 },
      tab('clusters', 'rfq-quotes'),
      tab('ticketing', 'rfq-quotes'),
      { id: 'negotiations', position: { referencePanel: 'rfq-quotes', direction: 'right' } },
    ],
  },
];

export const DEFAULT_PRESET: PresetName = 'trader';

export const PANEL_TITLES: Record<WorkspacePanelId, string> = Object.fromEntries(
  WORKSPACE_PANELS.map((panel) => [panel.id, panel.title]),
) as Record<WorkspacePanelId, string>;

export const presetByName = (name: PresetName): Preset => PRESETS.find((preset) => preset.name === name) ?? PRESETS[0]!;
