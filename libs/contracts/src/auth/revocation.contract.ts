/**
 * Access tokens of `subject` (a user's or API key's uuid, the token's `sub`) issued before `notBefore` (seconds since
 * the epoch, compared with the token's `iat`) are refused. Tokens auth-service issues afterwards carry an `iat` of at
 * least `notBefore`.
 */
export interface AccountRevocation {
  subject: string;
  notBefore: number;
}

export interface AccountsRevokedEvent {
  revocations: AccountRevocation[];
}

/**
 * Revocations changed at or after `changedSince` (an ISO 8601 instant; null: every revocation still in force), in
 * pages: the next page asks again with the `lastSequence` of the previous one as `afterSequence` (0 at first).
 */
export interface ListRevocationsRequest {
  changedSince: string | null;
  afterSequence: number;
}

export interface RevocationPage {
  revocations: AccountRevocation[];
  /** auth-service's database clock when the page was read: the caller's next `changedSince`, less a margin. */
  asOf: string;
  lastSequence: number;
  /** True when more revocations follow this page. */
  more: boolean;
}
