/**
 * The one normalization of the names a login gives (tenant slug, e-mail, API-key public key): Unicode NFKC, lower
 * case, no surrounding white space. Stored e-mails, every login lookup and the keys of the login limits all use it,
 * so two spellings that reach the same account always share one failure counter.
 */
export function normalizeLoginName(name: string): string {
  // NFKC again after lower-casing: a few characters lower-case into forms NFKC would still fold.
  return name.normalize('NFKC').toLowerCase().normalize('NFKC').trim();
}
