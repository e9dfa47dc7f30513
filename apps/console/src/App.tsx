import { AppShell, Burger, Button, Center, Group, Loader, NavLink, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useCan, useSession, useSignedIn } from './api/context';
import { BASE_PATH, matchPath, navigate, usePath } from './router';
import { ChargingSessionDetail, ChargingSessionList } from './screens/charging-sessions';
import { CommandDetail, CommandList } from './screens/commands';
import { ControllerDetail, ControllerList } from './screens/controllers';
import { LocationDetail, LocationEdit, LocationList } from './screens/locations';
import { SignIn } from './screens/sign-in';

// The admin screens are their own chunk, fetched when one opens: the first screen's bundle stays small.
const admin = () => import('./screens/admin');
const UserList = lazy(() => admin().then((module) => ({ default: module.UserList })));
const RoleList = lazy(() => admin().then((module) => ({ default: module.RoleList })));
const ApiKeyList = lazy(() => admin().then((module) => ({ default: module.ApiKeyList })));
const AuditEventList = lazy(() => admin().then((module) => ({ default: module.AuditEventList })));
const webhooks = () => import('./screens/webhooks');
const WebhookList = lazy(() => webhooks().then((module) => ({ default: module.WebhookList })));
const WebhookDetail = lazy(() => webhooks().then((module) => ({ default: module.WebhookDetail })));

interface Section {
  path: string;
  label: string;
  permission: string;
}

/** The sections of the navigation, each shown only to a role that may list it. */
const SECTIONS: Section[] = [
  { path: '/locations', label: 'Locations', permission: 'asset:locations:list' },
  { path: '/controllers', label: 'Controllers', permission: 'asset:controllers:list' },
  { path: '/commands', label: 'Commands', permission: 'control:commands:list' },
  { path: '/charging-sessions', label: 'Charging sessions', permission: 'control:charging-sessions:list' },
  { path: '/webhooks', label: 'Webhooks', permission: 'webhooks:subscriptions:list' },
  { path: '/users', label: 'Users', permission: 'admin:users:list' },
  { path: '/roles', label: 'Roles', permission: 'admin:roles:list' },
  { path: '/api-keys', label: 'API keys', permission: 'admin:api-keys:list' },
  { path: '/audit-events', label: 'Audit events', permission: 'admin:audit-events:list' },
];

function Screen({ path }: { path: string }): ReactNode {
  let params: Record<string, string> | null;
  if (matchPath('/locations', path)) return <LocationList />;
  if (matchPath('/locations/new', path)) return <LocationEdit />;
  if ((params = matchPath('/locations/:uuid/edit', path))) return <LocationEdit uuid={params.uuid} />;
  if ((params = matchPath('/locations/:uuid', path))) return <LocationDetail uuid={params.uuid} />;
  if (matchPath('/controllers', path)) return <ControllerList />;
  if ((params = matchPath('/controllers/:uuid', path))) return <ControllerDetail uuid={params.uuid} />;
  if (matchPath('/commands', path)) return <CommandList />;
  if ((params = matchPath('/commands/:uuid', path))) return <CommandDetail uuid={params.uuid} />;
  if (matchPath('/charging-sessions', path)) return <ChargingSessionList />;
  if ((params = matchPath('/charging-sessions/:uuid', path)))
    return <ChargingSessionDetail uuid={params.uuid} />;
  if (matchPath('/webhooks', path)) return <WebhookList />;
  if ((params = matchPath('/webhooks/:uuid', path))) return <WebhookDetail uuid={params.uuid} />;
  if (matchPath('/users', path)) return <UserList />;
  if (matchPath('/roles', path)) return <RoleList />;
  if (matchPath('/api-keys', path)) return <ApiKeyList />;
  if (matchPath('/audit-events', path)) return <AuditEventList />;
  return <Text>There is no such page in the console.</Text>;
}

export function App() {
  const session = useSession();
  const signedIn = useSignedIn();
  const can = useCan();
  const path = usePath();
  const [resuming, setResuming] = useState(true);
  const [navOpen, { toggle, close }] = useDisclosure(false);

  useEffect(() => {
    void session.resume().finally(() => setResuming(false));
  }, [session]);

  const sections = SECTIONS.filter((section) => can(section.permission));
  useEffect(() => {
    if (signedIn && path === '/' && sections[0]) navigate(sections[0].path, { replace: true });
  }, [signedIn, path, sections]);
  useEffect(close, [path, close]);

  if (resuming) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading the console" />
      </Center>
    );
  }
  if (!signedIn) return <SignIn />;

  return (
    <>
      <a href="#main-content" className="cpc-skip-link">
        Skip to content
      </a>
      <AppShell
        header={{ height: 56 }}
        navbar={{ width: { sm: 180, lg: 220 }, breakpoint: 'sm', collapsed: { mobile: !navOpen } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={navOpen} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
              <Text fw={700} component="span">
                Charging Platform
              </Text>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <Text size="sm" visibleFrom="xs" component="span">
                {signedIn.username} · {signedIn.claims.tenant}
              </Text>
              <Button
                variant="default"
                size="xs"
                onClick={() => {
                  // The next account starts at its own first section; a session that ended by itself keeps the page.
                  session.signOut();
                  navigate('/', { replace: true });
                }}
              >
                Sign out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" component="nav" aria-label="Sections">
          {sections.map((section) => (
            <NavLink
              key={section.path}
              href={`${BASE_PATH}${section.path}`}
              label={section.label}
              variant="filled"
              active={path === section.path || path.startsWith(`${section.path}/`)}
              onClick={(event) => {
                event.preventDefault();
                navigate(section.path);
              }}
            />
          ))}
          {sections.length === 0 && (
            <Text size="sm" p="xs">
              Your role allows none of the console&apos;s sections.
            </Text>
          )}
        </AppShell.Navbar>
        <AppShell.Main id="main-content" tabIndex={-1}>
          <Stack gap="md" maw={1200}>
            <Suspense fallback={<Text>Loading…</Text>}>
              <Screen path={path} />
            </Suspense>
          </Stack>
        </AppShell.Main>
      </AppShell>
    </>
  );
}
