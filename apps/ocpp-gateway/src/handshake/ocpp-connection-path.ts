/** `/ocpp/<tenant slug>/<ocpp identity>`, both segments URL-decoded. */
export interface OcppConnectionPath {
  tenantSlug: string;
  identity: string;
}

const SLUG_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
// OCPP 2.0.1 identifierString (1.6 allows a superset of printable characters, so no colon and no slash is the rule
// that matters: the identity is the Basic-auth user name and the last URL segment); at most 48 characters.
const IDENTITY_PATTERN = /^[^\s/:]{1,48}$/;

/**
 * Parses the request URL of an upgrade; undefined for anything that is not an OCPP endpoint. Checked before ocpp-rpc
 * sees the request, because ocpp-rpc decodes the last segment outside its own error handling and a malformed
 * percent-escape there would be an unhandled rejection.
 */
export function parseOcppConnectionPath(url: string | undefined): OcppConnectionPath | undefined {
  if (!url) return undefined;
  const pathname = url.split('?', 1)[0] ?? '';
  const segments = pathname.split('/');
  if (segments.length !== 4 || segments[0] !== '' || segments[1] !== 'ocpp') return undefined;
  try {
    const tenantSlug = decodeURIComponent(segments[2] ?? '');
    const identity = decodeURIComponent(segments[3] ?? '');
    if (!SLUG_PATTERN.test(tenantSlug) || !IDENTITY_PATTERN.test(identity)) return undefined;
    return { tenantSlug, identity };
  } catch {
    return undefined;
  }
}
