import { Anchor, type AnchorProps } from '@mantine/core';
import { type MouseEvent, type ReactNode, useSyncExternalStore } from 'react';

/**
 * The console's routes are paths under /console (api-gateway answers every one of them with index.html), moved
 * between with the History API; no router library for a dozen routes.
 */
export const BASE_PATH = '/console';
const CHANGE = 'cpc-console:navigate';

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(CHANGE, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(CHANGE, listener);
  };
}

/** The path inside the console (`/locations/…`), without the base. */
function currentPath(): string {
  const path = window.location.pathname;
  const inside = path.startsWith(BASE_PATH) ? path.slice(BASE_PATH.length) : path;
  return inside.replace(/\/+$/, '') || '/';
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, currentPath);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE_PATH}${to}`;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new Event(CHANGE));
  window.scrollTo(0, 0);
}

/** `pattern` like `/locations/:uuid`; the named segments, or null when the path is another. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const wanted = pattern.split('/');
  const actual = path.split('/');
  if (wanted.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < wanted.length; index += 1) {
    const segment = wanted[index];
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(actual[index]);
    else if (segment !== actual[index]) return null;
  }
  return params;
}

/** A real link (opens in a new tab with a middle click), moving inside the console on a plain click. */
export function Link({
  to,
  children,
  ...props
}: AnchorProps & { to: string; children: ReactNode; 'aria-label'?: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <Anchor href={`${BASE_PATH}${to}`} onClick={onClick} {...props}>
      {children}
    </Anchor>
  );
}
