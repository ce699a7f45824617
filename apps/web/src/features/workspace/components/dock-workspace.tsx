import { WORKSPACE_PANELS, WorkspaceLayoutDocumentSchema, type WorkspaceLayoutDocument, type WorkspacePanelId } from '@dart/contracts';
import { ActionIcon, Button, Group, Menu, Select, Text, Tooltip, useComputedColorScheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  DockviewReact,
  themeDark,
  themeLight,
  type DockviewApi,
  type DockviewReadyEvent,
  type IDockviewHeaderActionsProps,
  type IDockviewPanelProps,
} from 'dockview-react';
// The dock's own stylesheet, loaded with the workspace chunk only (the dock is lazy with the /dart route).
// oxlint-disable-next-line import/no-unassigned-import
import 'dockview-react/dist/styles/dockview.css';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { ChevronDownIcon } from '../../../components/ui/icons';
import { useSaveWorkspaceLayout, useWorkspaceLayout, workspaceLayoutQueryOptions } from '../api/workspace-layout';
import { DEFAULT_PRESET, PANEL_TITLES, PRESETS, presetByName, type PresetName } from '../utils/presets';
import { chooseLayout, readStoredLayout, writeStoredLayout } from '../utils/stored-layout';
import classes from './workspace.module.css';

/** Each panel's body, by panel id: the route composes them from the features (chat, market, workspace). */
export type WorkspacePanelNodes = Partial<Record<WorkspacePanelId, ReactNode>>;

export interface DockWorkspaceProps {
  userId: string;
  panels: WorkspacePanelNodes;
  /** The left of the toolbar (the page title and the user's badges). */
  heading: ReactNode;
  /**
   * Requests to show a panel (open it if closed, bring its tab forward), e.g. the ticket when `B` / `S`
   * is pressed: called with the dock's `show`, returns the unsubscribe.
   */
  reveal?: (show: (id: WorkspacePanelId) => void) => () => void;
}

/** Server saves wait for the layout to settle (a drag or a resize fires many changes). */
const SAVE_DEBOUNCE_MS = 800;
/** How long the dock waits for the server's copy of the layout before opening on the local one. */
const SERVER_WAIT_MS = 1500;
const PANEL_IDS = WORKSPACE_PANELS.map((panel) => panel.id);
const PANEL_TITLE_LIST = WORKSPACE_PANELS.map((panel) => panel.title);
/** Phones (issue 12 §5 fix 9): one panel at a time with a switcher. */
const PHONE_QUERY = '(max-width: 48em)';

const PanelNodesContext = createContext<WorkspacePanelNodes>({});

function DockPanelBody({ api }: IDockviewPanelProps) {
  const nodes = useContext(PanelNodesContext);
  return (
    <div className={classes.panelBody} data-testid={`dock-panel-${api.id}`}>
      {nodes[api.id as WorkspacePanelId] ?? null}
    </div>
  );
}

/** One content component per panel id (the saved layout names them). */
const COMPONENTS = Object.fromEntries(PANEL_IDS.map((id) => [id, DockPanelBody]));

/** Maximise / restore the group's active panel, at the right of every tab strip. */
function GroupActions({ api, containerApi, activePanel }: IDockviewHeaderActionsProps) {
  const [maximised, setMaximised] = useState(() => api.isMaximized());
  useEffect(() => {
    const subscription = containerApi.onDidMaximizedGroupChange(() => setMaximised(api.isMaximized()));
    return () => subscription.dispose();
  }, [api, containerApi]);
  if (!activePanel) return null;
  const label = maximised ? `Restore ${activePanel.title ?? ''}` : `Maximise ${activePanel.title ?? ''}`;
  return (
    <Group gap={2} px={4} h="100%" wrap="nowrap">
      <Tooltip label={maximised ? 'Restore' : 'Maximise'} withinPortal>
        <ActionIcon
          size="sm"
          variant="subtle"
          color="gray"
          aria-label={label}
          onClick={() => (maximised ? api.exitMaximized() : api.maximize())}
        >
          <span aria-hidden className={classes.maximiseGlyph}>
            {maximised ? '❐' : '□'}
          </span>
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function applyPreset(api: DockviewApi, name: PresetName): void {
  api.clear();
  for (const placement of presetByName(name).placements) {
    api.addPanel({
      id: placement.id,
      component: placement.id,
      title: PANEL_TITLES[placement.id],
      ...(placement.position ? { position: placement.position } : {}),
      ...(placement.inactive ? { inactive: true } : {}),
      ...(placement.initialWidth ? { initialWidth: placement.initialWidth } : {}),
      ...(placement.initialHeight ? { initialHeight: placement.initialHeight } : {}),
    });
  }
  // The first panel of each group is the one in view.
  for (const placement of presetByName(name).placements) if (!placement.inactive) api.getPanel(placement.id)?.api.setActive();
}

/** The dock as stored: its grid and every panel title this workspace offers (open or closed). */
function serialise(api: DockviewApi): WorkspaceLayoutDocument | null {
  const parsed = WorkspaceLayoutDocumentSchema.safeParse({ panels: PANEL_TITLE_LIST, dock: api.toJSON() });
  return parsed.success ? parsed.data : null;
}

/** Lays out a stored dock; false (and the default preset) when the library refuses it. */
function applyLayout(api: DockviewApi, layout: WorkspaceLayoutDocument): boolean {
  try {
    api.fromJSON(layout.dock as unknown as Parameters<DockviewApi['fromJSON']>[0]);
    return api.panels.length > 0;
  } catch {
    applyPreset(api, DEFAULT_PRESET);
    return false;
  }
}

/**
 * Shows a panel: its tab brought forward or, when it is closed, opened from the active group. A panel
 * asked for from elsewhere (the ticket on B / S) opens `beside` it, so the panel the user was working in
 * (the blotter) stays in view; one re-opened from the Panels menu opens as a tab `within` it.
 */
function showPanelIn(api: DockviewApi, id: WorkspacePanelId, placement: 'beside' | 'within'): void {
  const existing = api.getPanel(id);
  if (existing) {
    existing.api.setActive();
    return;
  }
  const group = api.activeGroup ?? api.groups[0];
  const direction = placement === 'beside' ? ('left' as const) : ('within' as const);
  api.addPanel({
    id,
    component: id,
    title: PANEL_TITLES[id],
    ...(group ? { position: { referenceGroup: group, direction } } : {}),
    ...(placement === 'beside' ? { initialWidth: 330 } : {}),
  });
}

/**
 * The /dart docking workspace (issue 12 §2): every panel can be dragged, split, tabbed, maximised
 * and closed, and re-opened from the Panels menu. The layout is kept per user in the browser and
 * on the server (so it follows the user), with Reset layout and the named presets. On a phone it is
 * one panel at a time with a switcher.
 */
export function DockWorkspace({ userId, panels, heading, reveal }: DockWorkspaceProps) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  return (
    <PanelNodesContext.Provider value={panels}>
      {phone ? (
        <PhoneWorkspace panels={panels} heading={heading} reveal={reveal} />
      ) : (
        <DeskWorkspace userId={userId} heading={heading} reveal={reveal} />
      )}
    </PanelNodesContext.Provider>
  );
}

function DeskWorkspace({ userId, heading, reveal }: { userId: string; heading: ReactNode; reveal?: DockWorkspaceProps['reveal'] }) {
  const scheme = useComputedColorScheme('light');
  const server = useWorkspaceLayout(userId);
  const save = useSaveWorkspaceLayout(userId);
  const [api, setApi] = useState<DockviewApi | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const applying = useRef(false);
  // The dock opens once the server's copy is known (or after SERVER_WAIT_MS without it, on the local copy).
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    const wait = setTimeout(() => setWaited(true), SERVER_WAIT_MS);
    return () => clearTimeout(wait);
  }, []);
  const settled = server.isSuccess || server.isError || waited;
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // TanStack Query keeps `mutate` stable across renders.
  const { mutate: saveLayout } = save;

  const withoutSaving = useCallback((apply: () => void) => {
    applying.current = true;
    try {
      apply();
    } finally {
      applying.current = false;
    }
  }, []);

  const pushToServer = useCallback(
    (layout: WorkspaceLayoutDocument) =>
      saveLayout(layout, {
        onSuccess: (saved) => {
          const current = readStoredLayout(userId);
          // Still the layout that was sent: the local copy is now in step with the server.
          if (current && JSON.stringify(current.layout) === JSON.stringify(layout))
            writeStoredLayout(userId, { layout, version: saved.version, dirty: false });
        },
      }),
    [userId, saveLayout],
  );

  const onReady = useCallback(
    (event: DockviewReadyEvent) => {
      const dock = event.api;
      // One decision, before anything mounts: remounting panels would cancel their first loads.
      const local = readStoredLayout(userId);
      const known = queryClient.getQueryData(workspaceLayoutQueryOptions(userId).queryKey);
      const choice = chooseLayout(local, known);
      withoutSaving(() => {
        if (!choice.layout || !applyLayout(dock, choice.layout)) applyPreset(dock, DEFAULT_PRESET);
      });
      if (choice.source === 'server' && choice.layout && known)
        writeStoredLayout(userId, { layout: choice.layout, version: known.version, dirty: false });
      else if (choice.push && choice.layout) pushToServer(choice.layout);
      else if (known && !known.layout && local) pushToServer(local.layout);
      setOpen(new Set(dock.panels.map((panel) => panel.id)));
      dock.onDidLayoutChange(() => {
        setOpen(new Set(dock.panels.map((panel) => panel.id)));
        if (applying.current) return;
        const layout = serialise(dock);
        if (!layout) return;
        const version = readStoredLayout(userId)?.version ?? 0;
        writeStoredLayout(userId, { layout, version, dirty: true });
        clearTimeout(timer.current);
        timer.current = setTimeout(() => pushToServer(layout), SAVE_DEBOUNCE_MS);
      });
      setApi(dock);
    },
    [userId, withoutSaving, pushToServer, queryClient],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  const choosePreset = (name: PresetName) => {
    if (!api) return;
    applyPreset(api, name);
    const layout = serialise(api);
    if (!layout) return;
    writeStoredLayout(userId, { layout, version: readStoredLayout(userId)?.version ?? 0, dirty: true });
    clearTimeout(timer.current);
    pushToServer(layout);
  };

  const showPanel = (id: WorkspacePanelId) => {
    if (api) showPanelIn(api, id, 'within');
  };

  useEffect(() => (api && reveal ? reveal((id) => showPanelIn(api, id, 'beside')) : undefined), [api, reveal]);

  return (
    <div className={classes.root} data-testid="workspace">
      <Group justify="space-between" wrap="nowrap" gap="sm" className={classes.toolbar}>
        <Group gap="sm" wrap="nowrap" miw={0}>
          {heading}
        </Group>
        <Group gap={6} wrap="nowrap">
          <Menu position="bottom-end" shadow="md" closeOnItemClick withinPortal>
            <Menu.Target>
              <Button size="compact-sm" variant="default" rightSection={<ChevronDownIcon size={14} />} disabled={!api}>
                Panels
              </Button>
            </Menu.Target>
            <Menu.Dropdown aria-label="Panels">
              <Menu.Label>Open or show a panel</Menu.Label>
              {WORKSPACE_PANELS.map((panel) => (
                <Menu.Item
                  key={panel.id}
                  onClick={() => showPanel(panel.id)}
                  rightSection={
                    open.has(panel.id) ? (
                      <Text size="xs" c="dimmed">
                        Open
                      </Text>
                    ) : null
                  }
                >
                  {panel.title}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          <Menu position="bottom-end" shadow="md" withinPortal>
            <Menu.Target>
              <Button size="compact-sm" variant="default" rightSection={<ChevronDownIcon size={14} />} disabled={!api}>
                Layout
              </Button>
            </Menu.Target>
            <Menu.Dropdown aria-label="Layout">
              <Menu.Label>Presets</Menu.Label>
              {PRESETS.map((preset) => (
                <Menu.Item key={preset.name} onClick={() => choosePreset(preset.name)}>
                  <Text size="sm">{preset.label}</Text>
                  <Text size="xs" c="dimmed" maw={260}>
                    {preset.description}
                  </Text>
                </Menu.Item>
              ))}
              <Menu.Divider />
              <Menu.Item onClick={() => choosePreset(DEFAULT_PRESET)}>Reset layout</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
      <div className={classes.dock}>
        {settled ? (
          <DockviewReact
            components={COMPONENTS}
            rightHeaderActionsComponent={GroupActions}
            onReady={onReady}
            theme={scheme === 'dark' ? themeDark : themeLight}
            defaultRenderer="always"
            disableFloatingGroups
            className={classes.dockview}
          />
        ) : null}
      </div>
    </div>
  );
}

function PhoneWorkspace({
  panels,
  heading,
  reveal,
}: {
  panels: WorkspacePanelNodes;
  heading: ReactNode;
  reveal?: DockWorkspaceProps['reveal'];
}) {
  const available = WORKSPACE_PANELS.filter((panel) => panels[panel.id] !== undefined);
  const [current, setCurrent] = useState<WorkspacePanelId>(available[0]?.id ?? 'public-runs');
  useEffect(() => reveal?.((id) => setCurrent(id)), [reveal]);
  return (
    <div className={classes.phoneRoot} data-testid="workspace">
      <Group justify="space-between" wrap="nowrap" gap="xs" className={classes.toolbar}>
        <Group gap="xs" wrap="nowrap" miw={0}>
          {heading}
        </Group>
        <Select
          aria-label="Panel"
          size="xs"
          w={170}
          allowDeselect={false}
          data={available.map((panel) => ({ value: panel.id, label: panel.title }))}
          value={current}
          onChange={(value) => value && setCurrent(value as WorkspacePanelId)}
          comboboxProps={{ withinPortal: true }}
          data-testid="panel-switcher"
        />
      </Group>
      <section className={classes.phonePanel} aria-label={PANEL_TITLES[current]} data-testid={`dock-panel-${current}`}>
        {panels[current]}
      </section>
    </div>
  );
}
