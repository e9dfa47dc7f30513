/**
 * What a token allows. The token's `scope` claim holds its role's permissions, space-separated; a grant covers every
 * permission below it (`asset` covers `asset:locations:delete`, `*` covers everything), as api-gateway decides.
 */
export function grantCovers(grant: string, permission: string): boolean {
  return grant === '*' || grant === permission || permission.startsWith(`${grant}:`);
}

export function scopeAllows(scope: readonly string[], permission: string): boolean {
  return scope.some((grant) => grantCovers(grant, permission));
}

export interface TokenClaims {
  sub: string;
  tenant: string;
  scope: string[];
  /** Seconds since the epoch. */
  exp: number;
}

/** The claims the console uses, read from the JWT's payload (the signature is the API's business, not the console's). */
export function readTokenClaims(accessToken: string): TokenClaims {
  const payload = accessToken.split('.')[1] ?? '';
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const json = new TextDecoder().decode(Uint8Array.from(atob(padded), (char) => char.charCodeAt(0)));
  const claims = JSON.parse(json) as { sub?: unknown; tenant?: unknown; scope?: unknown; exp?: unknown };
  return {
    sub: typeof claims.sub === 'string' ? claims.sub : '',
    tenant: typeof claims.tenant === 'string' ? claims.tenant : '',
    scope: typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [],
    exp: typeof claims.exp === 'number' ? claims.exp : 0,
  };
}
