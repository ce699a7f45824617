import { describe, expect, it } from 'vitest';
import { intersects, MIN_SIDE_WIDTH, naturalBox, placeToastStack, type Box, type Placement, type PlacementInput } from './toast-placement';

const DESKTOP = { width: 1440, height: 900 };
/** A Mantine `md` modal (440 px) 5dvh from the top, with its buttons in the bottom row. */
const MODAL: Box = { left: 500, top: 45, width: 440, height: 420 };
const MODAL_ACTIONS: Box = { left: 700, top: 409, width: 224, height: 36 };

function input(overrides: Partial<PlacementInput> = {}): PlacementInput {
  return {
    viewport: DESKTOP,
    position: 'top-center',
    width: 440,
    stackHeight: 80,
    dialog: MODAL,
    actions: MODAL_ACTIONS,
    ...overrides,
  };
}

const boxOf = (placement: Placement, stackHeight: number): Box => ({
  left: placement.left,
  top: placement.top,
  width: placement.width,
  height: placement.maxHeight === null ? stackHeight : Math.min(stackHeight, placement.maxHeight),
});

describe('toast placement around an open dialog', () => {
  it("keeps each group's spec place when no dialog is open, or when its place is clear of the dialog", () => {
    expect(placeToastStack(input({ dialog: null, actions: null }))).toBeNull();
    // The notification group at the top right is clear of a centred medium modal on a wide screen.
    expect(placeToastStack(input({ position: 'top-right', width: 320 }))).toBeNull();
    // A short modal well below the top-centre stack.
    expect(placeToastStack(input({ dialog: { left: 500, top: 300, width: 440, height: 200 } }))).toBeNull();
  });

  it('draws the default stack where Mantine does: top centre, 16 px from the edge', () => {
    expect(naturalBox(input())).toEqual({ left: 500, top: 16, width: 440, height: 80 });
    expect(naturalBox(input({ position: 'bottom-left', width: 300 }))).toEqual({ left: 16, top: 900 - 16 - 80, width: 300, height: 80 });
  });

  it('moves the default stack below a dialog that starts at the top, when the space below holds it', () => {
    const placement = placeToastStack(input())!;
    expect(placement.where).toBe('below');
    expect(placement.top).toBe(MODAL.top + MODAL.height + 16);
    expect(intersects(boxOf(placement, 80), MODAL)).toBe(false);
  });

  it('keeps the top-centre stack where it is above a lower dialog, and lifts a bottom group above a dialog reaching the bottom', () => {
    expect(placeToastStack(input({ dialog: { left: 500, top: 200, width: 440, height: 500 }, stackHeight: 150 }))).toBeNull();
    const low: Box = { left: 500, top: 300, width: 440, height: 580 };
    const placement = placeToastStack(input({ position: 'bottom-center', dialog: low, stackHeight: 80 }))!;
    expect(placement).toMatchObject({ where: 'above', top: 300 - 16 - 80 });
    expect(intersects(boxOf(placement, 80), low)).toBe(false);
  });

  it('puts it beside a tall dialog when neither above nor below holds it, narrowed to the free width', () => {
    const tall: Box = { left: 420, top: 45, width: 600, height: 800 };
    const placement = placeToastStack(input({ dialog: tall, stackHeight: 240 }))!;
    expect(placement.where).toBe('right');
    expect(placement.left).toBe(1020 + 16);
    expect(placement.width).toBe(Math.min(440, 1440 - 1020 - 32));
    expect(intersects(boxOf(placement, 240), tall)).toBe(false);
  });

  it('moves the notification group beside or off the dialog when a wide dialog reaches its corner', () => {
    const wide: Box = { left: 240, top: 45, width: 1000, height: 600 };
    const placement = placeToastStack(input({ position: 'top-right', width: 320, dialog: wide, stackHeight: 100 }))!;
    expect(intersects(boxOf(placement, 100), wide)).toBe(false);
    expect(placement.width).toBeGreaterThanOrEqual(MIN_SIDE_WIDTH);
  });

  it("on a phone-sized full dialog, keeps the stack over the dialog's body and clear of its action buttons", () => {
    const phone = { width: 390, height: 844 };
    const sheet: Box = { left: 0, top: 0, width: 390, height: 844 };
    const actions: Box = { left: 16, top: 780, width: 358, height: 40 };
    for (const stackHeight of [80, 400, 1200]) {
      const placement = placeToastStack(input({ viewport: phone, dialog: sheet, actions, stackHeight }))!;
      expect(placement.where).toBe('over-body');
      expect(placement.maxHeight).not.toBeNull();
      expect(intersects(boxOf(placement, stackHeight), actions)).toBe(false);
      expect(placement.top + Math.min(stackHeight, placement.maxHeight!)).toBeLessThanOrEqual(actions.top - 16);
    }
  });

  it('starts below the actions when they sit high in the dialog and the space under them is the larger', () => {
    const phone = { width: 390, height: 844 };
    const sheet: Box = { left: 0, top: 0, width: 390, height: 844 };
    const actions: Box = { left: 16, top: 60, width: 358, height: 40 };
    const placement = placeToastStack(input({ viewport: phone, dialog: sheet, actions, stackHeight: 200 }))!;
    expect(placement.top).toBe(60 + 40 + 16);
    expect(intersects(boxOf(placement, 200), actions)).toBe(false);
  });

  it("treats the dialog's bottom strip as its footer when it has no buttons to find", () => {
    const phone = { width: 390, height: 844 };
    const sheet: Box = { left: 0, top: 0, width: 390, height: 844 };
    const placement = placeToastStack(input({ viewport: phone, dialog: sheet, actions: null, stackHeight: 2000 }))!;
    expect(placement.top + placement.maxHeight!).toBeLessThanOrEqual(844 - 64 - 16);
  });

  it('never overlaps the actions of dialogs of every size at 1280, 1440 and 390 px wide', () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ])
      for (const dialogWidth of [320, 440, 620, 780, 1000])
        for (const dialogTop of [0, 45, 120])
          for (const dialogHeight of [200, 500, 760])
            for (const stackHeight of [70, 160, 420])
              for (const position of ['top-center', 'top-right', 'bottom-center', 'bottom-left'] as const) {
                const width = Math.min(dialogWidth, viewport.width);
                const dialog: Box = {
                  left: (viewport.width - width) / 2,
                  top: dialogTop,
                  width,
                  height: Math.min(dialogHeight, viewport.height - dialogTop),
                };
                const actions: Box = { left: dialog.left + width - 200, top: dialog.top + dialog.height - 52, width: 184, height: 36 };
                const placed = placeToastStack(
                  input({ viewport, position, width: position === 'top-right' ? 320 : 440, dialog, actions, stackHeight }),
                );
                const box = placed
                  ? boxOf(placed, stackHeight)
                  : naturalBox(input({ viewport, position, width: position === 'top-right' ? 320 : 440, stackHeight }));
                expect(intersects(box, actions), JSON.stringify({ viewport, dialog, stackHeight, position, placed })).toBe(false);
              }
  });
});
