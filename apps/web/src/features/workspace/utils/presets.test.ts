import { WORKSPACE_PANEL_IDS } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { PRESETS } from './presets';

describe('workspace presets (issue 12 §2)', () => {
  it.each(PRESETS.map((preset) => [preset.label, preset] as const))(
    '%s places every panel once, each beside one placed before it',
    (_label, preset) => {
      const ids = preset.placements.map((placement) => placement.id);
      expect([...ids].sort()).toEqual([...WORKSPACE_PANEL_IDS].sort());
      expect(preset.placements[0]?.position).toBeUndefined();
      const unplacedReferences = preset.placements
        .slice(1)
        .filter((placement, index) => !ids.slice(0, index + 1).includes(placement.position?.referencePanel as never));
      expect(unplacedReferences).toEqual([]);
    },
  );

  it.each(PRESETS.map((preset) => [preset.label, preset] as const))(
    '%s keeps runs, RFQ quotes, negotiations and chat in view (none behind a tab)',
    (_label, preset) => {
      const inView = (id: string) => preset.placements.find((p) => p.id === id)?.inactive !== true;
      expect(inView('public-runs') || inView('private-runs'), 'runs').toBe(true);
      for (const id of ['rfq-quotes', 'negotiations', 'chat']) expect(inView(id), id).toBe(true);
    },
  );
});
