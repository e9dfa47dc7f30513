/** What the handshake's takeover check found (SecurityProfileTakeoverGuard). */
export interface TakeoverCheck {
  /** The profile of the socket a profile-0 newcomer would replace, when that one is higher. */
  outranking: number | undefined;
  /** The revision of the controller's presence key as read (0: none); undefined when it was not read. */
  presenceRevision?: number;
}

/**
 * Whether a newer connection authenticated with profile `newer` may replace one with `held`: any may, except profile
 * 0 one of a higher profile. Unknown (an entry or notice of an earlier version): it may, as before.
 */
export function mayReplace(newer: number | undefined, held: number | undefined): boolean {
  return !(newer === 0 && held !== undefined && held > 0);
}

/**
 * Whether a connection of profile `own` giving way to one of profile `other` is outranked (closed with 1008), not
 * replaced (1000): a profile-0 one yielding to a higher profile. Unknown: replaced, as before.
 */
export function isOutranked(own: number, other: number | undefined): boolean {
  return own === 0 && other !== undefined && other > 0;
}
