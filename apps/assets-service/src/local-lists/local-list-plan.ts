import type { AuthorizationToken, IdTokenType, LocalListUpdateKind } from '@cpc/contracts';

/** One entry of a local list as the platform sent it: the token and what the list said about it. */
export type LocalListEntry = Omit<AuthorizationToken, 'allowedLocationUuids'>;

export interface LocalListRemoval {
  idToken: string;
  type: IdTokenType;
}

/** An update to send and the list the controller holds once it accepts it. */
export interface LocalListPlan {
  /** Tokens to add or replace (a full update: every entry). */
  tokens: LocalListEntry[];
  /** Differential only: entries of the recorded list that are no longer on it (sent without idTagInfo). */
  removals: LocalListRemoval[];
  /** The list after the update, in uuid order. */
  entries: LocalListEntry[];
}

/** 1.6 SendLocalList `idTag` and `parentIdTag` are CiString20. */
export const OCPP16_ID_TAG_MAX_LENGTH = 20;

export function entryOf(token: AuthorizationToken): LocalListEntry {
  return {
    uuid: token.uuid,
    idToken: token.idToken,
    type: token.type,
    status: token.status,
    expiresAt: token.expiresAt,
    group: token.group ? { idToken: token.group.idToken, type: token.group.type } : null,
  };
}

/**
 * Whether a token can be on a 1.6 list: its value fits an idTag. A group too long for a parentIdTag is left off the
 * entry (sendLocalListCall does the same), so the entry is recorded without it.
 */
export function forOcpp16(entry: LocalListEntry): LocalListEntry | undefined {
  if (entry.idToken.length > OCPP16_ID_TAG_MAX_LENGTH) return undefined;
  if (entry.group && entry.group.idToken.length > OCPP16_ID_TAG_MAX_LENGTH) return { ...entry, group: null };
  return entry;
}

const byUuid = (a: LocalListEntry, b: LocalListEntry) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);

function sameEntry(a: LocalListEntry, b: LocalListEntry): boolean {
  return (
    a.idToken === b.idToken &&
    a.type === b.type &&
    a.status === b.status &&
    a.expiresAt === b.expiresAt &&
    (a.group?.idToken ?? null) === (b.group?.idToken ?? null) &&
    (a.group?.type ?? null) === (b.group?.type ?? null)
  );
}

/**
 * The update that makes a controller's list `wanted`. Full: every wanted entry. Differential: the wanted entries the
 * recorded list lacks or holds differently (status, expiry, group), and a removal for each recorded entry no longer
 * wanted (by the value and type it was sent with); with no recorded list, every wanted entry.
 */
export function planLocalList(
  updateType: LocalListUpdateKind,
  recorded: readonly LocalListEntry[] | null,
  wanted: readonly LocalListEntry[],
): LocalListPlan {
  const entries = [...wanted].sort(byUuid);
  if (updateType === 'full') return { tokens: entries, removals: [], entries };
  const before = new Map((recorded ?? []).map((entry) => [entry.uuid, entry]));
  const tokens = entries.filter((entry) => {
    const old = before.get(entry.uuid);
    return !old || !sameEntry(old, entry);
  });
  const kept = new Set(entries.map((entry) => entry.uuid));
  const removals = (recorded ?? [])
    .filter((entry) => !kept.has(entry.uuid))
    .map((entry) => ({ idToken: entry.idToken, type: entry.type }));
  return { tokens, removals, entries };
}

/**
 * The list a charge point holds once it accepted the first `end` items (tokens, then removals) of an update, sent in
 * order: a full update, the first `end` tokens; a differential one, the list it was prepared against (`base`) with
 * those tokens added or replaced and those removals taken off (by the value and type they were sent with). In uuid
 * order.
 */
export function listAfter(
  updateType: LocalListUpdateKind,
  base: readonly LocalListEntry[] | null,
  plan: Pick<LocalListPlan, 'tokens' | 'removals'>,
  end: number,
): LocalListEntry[] {
  const sentTokens = plan.tokens.slice(0, end);
  if (updateType === 'full') return [...sentTokens].sort(byUuid);
  const list = new Map((base ?? []).map((entry) => [entry.uuid, entry]));
  for (const token of sentTokens) list.set(token.uuid, token);
  const removed = new Set(
    plan.removals
      .slice(0, Math.max(0, end - plan.tokens.length))
      .map((removal) => `${removal.type}\u0000${removal.idToken}`),
  );
  return [...list.values()]
    .filter((entry) => !removed.has(`${entry.type}\u0000${entry.idToken}`))
    .sort(byUuid);
}
