import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { ApiSession, SignedIn } from './session';

const SessionContext = createContext<ApiSession | null>(null);

export function SessionProvider({ session, children }: { session: ApiSession; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): ApiSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in account (re-renders on sign-in, refresh and sign-out), or null. */
export function useSignedIn(): SignedIn | null {
  const session = useSession();
  return useSyncExternalStore(session.subscribe, session.snapshot);
}

/** Whether the signed-in token's scopes allow `permission`; what the role does not allow is not shown. */
export function useCan(): (permission: string) => boolean {
  const session = useSession();
  useSignedIn();
  return (permission) => session.can(permission);
}
