import { Group, Kbd, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { Fragment, useSyncExternalStore } from 'react';
import { describeChord, HOTKEY_SCOPES, HOTKEY_SHEET_ATTRIBUTE, hotkeys, type HotkeyChord } from './registry';
import { SHEET_HOTKEY } from './app-hotkeys';
import { shortcutSheet } from './sheet-store';
import { useHotkey, useHotkeyList } from './use-hotkey';

function Chord({ chord }: { chord: HotkeyChord }) {
  const parts = describeChord(chord, hotkeys.isMac());
  return (
    <Group gap={4} wrap="nowrap" component="span">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? (
            <Text span size="xs" c="dimmed">
              +
            </Text>
          ) : null}
          <Kbd size="xs">{part}</Kbd>
        </Fragment>
      ))}
    </Group>
  );
}

/**
 * The `?` cheat sheet: every shortcut registered on the screen now, by scope (the registry's list,
 * so it never goes stale). Mounted once by the app header; Esc or `?` closes it.
 */
export function ShortcutSheet() {
  const opened = useSyncExternalStore(shortcutSheet.subscribe, shortcutSheet.isOpen, shortcutSheet.isOpen);
  const list = useHotkeyList();
  useHotkey({ ...SHEET_HOTKEY, run: shortcutSheet.toggle });
  useHotkey({ id: 'dialog-enter', keys: ['Enter'], label: "Send a dialog's form (counter, change a quote)", scope: 'Dialogs' });
  useHotkey({ id: 'dialog-escape', keys: ['Escape'], label: 'Close the dialog, a dropdown or this list', scope: 'Dialogs' });

  return (
    <Modal
      opened={opened}
      onClose={shortcutSheet.close}
      title={<Text fw={600}>Keyboard shortcuts</Text>}
      size="lg"
      {...{ [HOTKEY_SHEET_ATTRIBUTE]: '' }}
    >
      <Stack gap="md" data-testid="shortcut-sheet">
        {HOTKEY_SCOPES.map((scope) => {
          const entries = list.filter((entry) => entry.scope === scope);
          if (entries.length === 0) return null;
          return (
            <Table key={scope} verticalSpacing={4} aria-label={`${scope} shortcuts`} layout="fixed">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="38%">{scope}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Action</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td>
                      <Group gap={6} wrap="wrap">
                        {entry.keys.map((chord, index) => (
                          <Fragment key={chord}>
                            {/* Alternatives read "/ or Ctrl+K"; a set of arrows reads "↑ ↓ ← →". */}
                            {index > 0 && !entry.keys.every((key) => key.startsWith('Arrow')) ? (
                              <Text span size="xs" c="dimmed">
                                or
                              </Text>
                            ) : null}
                            <Chord chord={chord} />
                          </Fragment>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{entry.label}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          );
        })}
        <Text size="xs" c="dimmed">
          Letter and symbol keys do nothing while you type in a field; Esc always works.
        </Text>
      </Stack>
    </Modal>
  );
}
