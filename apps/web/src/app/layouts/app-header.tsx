import { ROLE_LABELS } from '@dart/contracts';
import {
  ActionIcon,
  Avatar,
  Badge,
  Box,
  Burger,
  Container,
  Drawer,
  Group,
  Kbd,
  Menu,
  Modal,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useNavigate } from '@tanstack/react-router';
import { useRef } from 'react';
import { BrandLogo } from '../../components/ui/brand-logo';
import {
  BoxIcon,
  BuildingIcon,
  ChatIcon,
  ChevronDownIcon,
  HelpIcon,
  KeyIcon,
  LogoutIcon,
  ReceiptIcon,
  SearchIcon,
  ShieldIcon,
  UserIcon,
  UsersIcon,
  NetworkIcon,
} from '../../components/ui/icons';
import { ButtonLink } from '../../components/ui/router-links';
import { ThemeToggle } from '../../components/ui/theme-toggle';
import { useChatUnreadTotal } from '../../features/chat';
import { BondSearchBox } from '../../features/find';
import { NotificationBell } from '../../features/notifications';
import { SupportMenuItems, SupportModal } from '../../features/support';
import { SEARCH_HOTKEY, ShortcutSheet, shortcutSheet, useHotkey } from '../../lib/hotkeys';
import { homePathFor, useSession } from '../../lib/session';
import { APP_NAV_LABELS, APP_NAV_PATHS, canManageOrganisation, navVisibility } from '../navigation';
import classes from './layouts.module.css';

const NAV_ICONS = {
  '/dart': <NetworkIcon size={16} />,
  '/find': <SearchIcon size={16} />,
  '/inventory': <BoxIcon size={16} />,
  '/client/transactions': <ReceiptIcon size={16} />,
  '/surveillance': <ShieldIcon size={16} />,
} as const;

/** The header's Chat link (to /chat) with the unread total of the chat session, when there is one. */
function ChatNavLink({ onClick }: { onClick?: (() => void) | undefined }) {
  const unread = useChatUnreadTotal();
  return (
    <Link to="/chat" className={classes.appNavLink} onClick={onClick} data-testid="nav-chat">
      <ChatIcon size={16} />
      Chat
      {unread > 0 ? (
        <Badge size="xs" color="red" circle={unread < 10} data-testid="nav-chat-unread">
          {unread > 99 ? '99+' : unread}
          <VisuallyHidden> unread</VisuallyHidden>
        </Badge>
      ) : null}
    </Link>
  );
}

function initials(first: string, last: string): string {
  return `${first.charAt(0)}${last.charAt(0)}`.toUpperCase() || '?';
}

/** Header of the signed-in app (dart and settings layouts); also shown to visitors on public app pages. */
export function AppHeader() {
  const { user, status } = useSession();
  const navigate = useNavigate();
  const [supportOpened, support] = useDisclosure(false);
  const [drawerOpened, drawer] = useDisclosure(false);
  // Below the lg breakpoint the header has no room for the search box: it opens in a dialog.
  const [searchOpened, searchDialog] = useDisclosure(false);
  const searchInput = useRef<HTMLInputElement | null>(null);
  const openBond = (bond: { id: number }) => {
    searchDialog.close();
    void navigate({ to: '/security/$id', params: { id: String(bond.id) } });
  };

  // `/` or Ctrl+K (⌘K): the header's bond search, or its dialog where the box is hidden.
  useHotkey({
    ...SEARCH_HOTKEY,
    run: () => {
      const input = searchInput.current;
      if (input && input.getClientRects().length > 0) {
        input.focus();
        input.select();
      } else searchDialog.open();
    },
  });

  const items = APP_NAV_PATHS.map((path) => ({ path, label: APP_NAV_LABELS[path], visibility: navVisibility(path, user) })).filter(
    (item) => item.visibility !== 'hidden',
  );

  // Chat: for signed-in users the /chat route admits (hidden for visitors and where the guards say no).
  const showChat = navVisibility('/chat', user) === 'visible';
  const navLinks = (onClick?: () => void) => [
    ...items.map((item) => (
      <Link key={item.path} to={item.path} className={classes.appNavLink} onClick={onClick}>
        {NAV_ICONS[item.path]}
        {item.label}
        {item.visibility === 'premium' ? (
          <Badge size="xs" variant="light" color="yellow" radius="sm">
            Premium
          </Badge>
        ) : null}
      </Link>
    )),
    showChat ? <ChatNavLink key="/chat" onClick={onClick} /> : null,
  ];

  return (
    <header className={classes.appHeader}>
      <Container fluid px={{ base: 'sm', sm: 'lg' }} h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="lg" wrap="nowrap" h="100%">
            <Burger opened={drawerOpened} onClick={drawer.toggle} hiddenFrom="md" size="sm" aria-label="Open navigation" />
            <BrandLogo size="sm" to={homePathFor(user)} />
            <Group gap={0} component="nav" aria-label="Main" visibleFrom="md" h="100%" wrap="nowrap">
              {navLinks()}
            </Group>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Box visibleFrom="lg">
              <BondSearchBox w={340} inputRef={searchInput} onSelect={openBond} />
            </Box>
            <Tooltip label="Search bonds (/)">
              <ActionIcon variant="default" size="lg" aria-label="Search bonds" onClick={searchDialog.open} hiddenFrom="lg">
                <SearchIcon />
              </ActionIcon>
            </Tooltip>
            {user ? <NotificationBell onNavigate={(path) => void navigate({ to: path })} /> : null}
            {/* On a phone the header has no room for it beside the bell: the account menu has it there. */}
            {user ? (
              <Tooltip label="Contact support">
                <ActionIcon variant="default" size="lg" aria-label="Contact support" onClick={support.open} visibleFrom="sm">
                  <HelpIcon />
                </ActionIcon>
              </Tooltip>
            ) : null}
            <ThemeToggle />
            {user ? (
              <Menu position="bottom-end" width={260} withArrow shadow="md">
                <Menu.Target>
                  <UnstyledButton aria-label="Account menu" px={6} py={4} style={{ borderRadius: 8 }}>
                    <Group gap={8} wrap="nowrap">
                      <Avatar radius="xl" size={32} color="dart" variant="filled">
                        {initials(user.user_info.first_name, user.user_info.last_name)}
                      </Avatar>
                      <Stack gap={0} visibleFrom="sm">
                        <Text size="sm" fw={600} lh={1.2}>
                          {user.user_info.first_name} {user.user_info.last_name}
                        </Text>
                        <Text size="xs" c="dimmed" lh={1.2}>
                          {user.name}
                        </Text>
                      </Stack>
                      <ChevronDownIcon size={14} />
                    </Group>
                  </UnstyledButton>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Label>
                    <Text size="xs" fw={600} c="var(--mantine-color-text)" truncate>
                      {user.user_info.email}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {user.user_info.roles.map((role) => ROLE_LABELS[role]).join(' · ')}
                    </Text>
                  </Menu.Label>
                  <Menu.Divider />
                  <Menu.Item leftSection={<HelpIcon size={16} />} rightSection={<Kbd size="xs">?</Kbd>} onClick={shortcutSheet.open}>
                    Keyboard shortcuts
                  </Menu.Item>
                  <Menu.Item leftSection={<UserIcon size={16} />} onClick={() => void navigate({ to: '/profile' })}>
                    Profile
                  </Menu.Item>
                  <Menu.Item leftSection={<BuildingIcon size={16} />} onClick={() => void navigate({ to: '/client/profile' })}>
                    Organisation
                  </Menu.Item>
                  {canManageOrganisation(user) ? (
                    <>
                      <Menu.Item leftSection={<UsersIcon size={16} />} onClick={() => void navigate({ to: '/manage-users' })}>
                        Manage users
                      </Menu.Item>
                      <Menu.Item leftSection={<KeyIcon size={16} />} onClick={() => void navigate({ to: '/exchange-credentials' })}>
                        Exchange credentials
                      </Menu.Item>
                    </>
                  ) : null}
                  <Menu.Item leftSection={<HelpIcon size={16} />} onClick={support.open} hiddenFrom="sm">
                    Contact support
                  </Menu.Item>
                  <SupportMenuItems onNavigate={(path) => void navigate({ to: path })} />
                  <Menu.Divider />
                  <Menu.Item leftSection={<LogoutIcon size={16} />} color="red" onClick={() => void navigate({ to: '/auth/logout' })}>
                    Sign out
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            ) : status === 'loading' ? null : (
              <ButtonLink to="/auth/login" size="sm">
                Sign in
              </ButtonLink>
            )}
          </Group>
        </Group>
      </Container>
      <Drawer opened={drawerOpened} onClose={drawer.close} title="Dart" size="xs" hiddenFrom="md">
        <Stack gap={0} component="nav" aria-label="Main">
          {navLinks(drawer.close)}
        </Stack>
      </Drawer>
      {user ? <SupportModal opened={supportOpened} onClose={support.close} /> : null}
      <Modal opened={searchOpened} onClose={searchDialog.close} title="Search bonds" size="md">
        <BondSearchBox w="100%" autoFocus onSelect={openBond} />
      </Modal>
      <ShortcutSheet />
    </header>
  );
}
