import { createTheme, type MantineColorsTuple } from '@mantine/core';
import { Z_INDEX } from '@dart/contracts';

/** Dart blue: a deep, calm institutional blue (shade 9 is the brand colour #224b94). */
const dart: MantineColorsTuple = [
  '#eef3ff',
  '#dce4f5',
  '#b5c7eb',
  '#8ba8e1',
  '#6a8dd8',
  '#557cd3',
  '#4873d2',
  '#3962ba',
  '#3057a7',
  '#224b94',
];

/** A slightly blue-tinted dark palette with brighter text than Mantine's default (dark-0 is body text). */
const dark: MantineColorsTuple = [
  '#e3e6ed',
  '#c2c8d4',
  '#9aa2b3',
  '#717a8e',
  '#4b5365',
  '#363d4e',
  '#2a303f',
  '#1f2431',
  '#171b26',
  '#10131b',
];

export const theme = createTheme({
  primaryColor: 'dart',
  primaryShade: { light: 8, dark: 5 },
  colors: { dart, dark },
  defaultRadius: 'md',
  focusRing: 'auto',
  cursorType: 'pointer',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    Tooltip: { defaultProps: { zIndex: Z_INDEX.tooltip } },
    Modal: { defaultProps: { zIndex: Z_INDEX.modal } },
    Overlay: { defaultProps: { zIndex: Z_INDEX.overlay } },
    // Above modals: a search box or picker inside a dialog (the private run form in a chat) opens its
    // list over the dialog, not behind it (Mantine's default popover layer, 300, is under our modals).
    Combobox: { defaultProps: { zIndex: Z_INDEX.modal + 1 } },
    // Likewise a popover, menu or hover card opened from a dialog (the ticket's Accept consideration, Reject…).
    Popover: { defaultProps: { zIndex: Z_INDEX.modal + 1 } },
    Menu: { defaultProps: { zIndex: Z_INDEX.modal + 1 } },
    HoverCard: { defaultProps: { zIndex: Z_INDEX.modal + 1 } },
  },
});

/** localStorage key of the persisted colour scheme (also read by public/color-scheme.js). */
export const COLOR_SCHEME_STORAGE_KEY = 'mantine-color-scheme-value';
