/**
 * The /dart docking workspace's saved layout (issue 12 §2): which panels are open, where, and how
 * large. Kept in the browser (spec §2 "locally stored layout configuration") and on the server, so
 * the layout follows the user to another machine. Every role may save its own layout: it changes
 * nothing but the user's own screen (view-only users included).
 */
import { z } from 'zod';

/** The panels of the workspace: the spec's six (§2) and the trading panels of issue 12 §2. */
export const WORKSPACE_PANELS = [
  { id: 'chat', title: 'Chat' },
  { id: 'ticketing', title: 'Ticketing' },
  { id: 'private-runs', title: 'Private runs' },
  { id: 'public-runs', title: 'Public runs' },
  { id: 'rfq-quotes', title: 'RFQ quotes' },
  { id: 'build-network', title: 'Build Network' },
  { id: 'quote-ticket', title: 'New quote' },
  { id: 'market-depth', title: 'Market depth' },
  { id: 'negotiations', title: 'Negotiations' },
  { id: 'clusters', title: 'Matches and deals' },
] as const;
export type WorkspacePanelId = (typeof WORKSPACE_PANELS)[number]['id'];
export const WORKSPACE_PANEL_IDS = WORKSPACE_PANELS.map((panel) => panel.id) as [WorkspacePanelId, ...WorkspacePanelId[]];

/** The layout panel the spec names: a stored layout that lacks it is cleared (spec §2). */
export const BUILD_NETWORK_PANEL_TITLE = 'Build Network';

/** GET and PUT: the caller's own layout (no spec path names one; it sits beside the workspace's other api/ paths). */
export const WORKSPACE_LAYOUT_PATH = '/api/workspace/layout/';

/** A saved layout is at most this many bytes of JSON (UTF-8): a full desk of panels is ~6 KB. */
export const WORKSPACE_LAYOUT_MAX_BYTES = 64 * 1024;

export const WORKSPACE_LAYOUT_MESSAGES = {
  tooLarge: `The layout is too large to save (at most ${WORKSPACE_LAYOUT_MAX_BYTES / 1024} KB).`,
  unknownPanel: 'The layout names a panel the workspace does not have.',
  noBuildNetwork: `The layout must list the '${BUILD_NETWORK_PANEL_TITLE}' panel.`,
} as const;

const panelId = z.enum(WORKSPACE_PANEL_IDS, { message: WORKSPACE_LAYOUT_MESSAGES.unknownPanel });

/**
 * The docking library's serialised grid (dockview `SerializedDockview`): checked at its top level
 * and by the panels it names; the inner split tree is the library's own and bounded by the size limit.
 */
export const DockLayoutSchema = z.strictObject({
  grid: z.looseObject({
    root: z.looseObject({ type: z.enum(['branch', 'leaf']) }),
    height: z.number().nonnegative(),
    width: z.number().nonnegative(),
    orientation: z.enum(['HORIZONTAL', 'VERTICAL']),
  }),
  panels: z.partialRecord(
    panelId,
    z.looseObject({ id: panelId, contentComponent: panelId.optional(), title: z.string().max(80).optional() }),
  ),
  activeGroup: z.string().max(64).optional(),
  floatingGroups: z.array(z.looseObject({})).max(WORKSPACE_PANELS.length).optional(),
  popoutGroups: z.array(z.looseObject({})).max(0).optional(),
  edgeGroups: z.looseObject({}).optional(),
});
export type DockLayout = z.infer<typeof DockLayoutSchema>;

/**
 * What is stored, in the browser and on the server: the dock's grid, and the titles of every panel
 * the workspace offered when it was saved (open or closed), so the spec's rule (a layout lacking
 * 'Build Network' is from an older workspace and is cleared) does not undo a user closing that panel.
 */
export const WorkspaceLayoutDocumentSchema = z.strictObject({
  panels: z
    .array(z.string().max(80))
    .max(40)
    .refine((titles) => titles.includes(BUILD_NETWORK_PANEL_TITLE), WORKSPACE_LAYOUT_MESSAGES.noBuildNetwork),
  dock: DockLayoutSchema,
});
export type WorkspaceLayoutDocument = z.infer<typeof WorkspaceLayoutDocumentSchema>;

/** Bytes of a value's JSON in UTF-8 (the size the limit counts). */
export function jsonByteLength(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** PUT body: the whole layout; 400 with a field error on `layout` when it is malformed or over the limit. */
export const WorkspaceLayoutUpdateSchema = z.strictObject({
  layout: WorkspaceLayoutDocumentSchema.refine((layout) => jsonByteLength(layout) <= WORKSPACE_LAYOUT_MAX_BYTES, {
    message: WORKSPACE_LAYOUT_MESSAGES.tooLarge,
  }),
});
export type WorkspaceLayoutUpdate = z.infer<typeof WorkspaceLayoutUpdateSchema>;

/**
 * GET and PUT answer: the saved layout (null before the first save), its version (0 before the first
 * save, +1 on every save: a client that holds an older version takes the server's) and when it was saved.
 */
export const WorkspaceLayoutSchema = z.object({
  layout: WorkspaceLayoutDocumentSchema.nullable(),
  version: z.number().int().nonnegative(),
  updated_at: z.string().nullable(),
});
export type WorkspaceLayout = z.infer<typeof WorkspaceLayoutSchema>;
