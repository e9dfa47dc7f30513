/**
 * What profile 3 reads of a client certificate's subject: the common name (the charge point's identity) and the
 * organization (the tenant's slug, see docs/security.md "Charge-point handshake"). An attribute that appears more
 * than once, or a subject that cannot be parsed, yields undefined: an ambiguous certificate names nobody.
 */
export interface CertificateSubject {
  commonName: string | undefined;
  organization: string | undefined;
}

const COMMON_NAME = new Set(['cn', 'commonname', '2.5.4.3', 'oid.2.5.4.3']);
const ORGANIZATION = new Set(['o', 'organizationname', '2.5.4.10', 'oid.2.5.4.10']);

type Attribute = [type: string, value: string];

/** From the attributes in any order; duplicated CN or O (whether equal or not) makes that field undefined. */
export function subjectOf(attributes: Iterable<Attribute>): CertificateSubject {
  const found = { commonName: [] as string[], organization: [] as string[] };
  for (const [type, value] of attributes) {
    const key = type.trim().toLowerCase();
    if (COMMON_NAME.has(key)) found.commonName.push(value);
    else if (ORGANIZATION.has(key)) found.organization.push(value);
  }
  const single = (values: string[]) => (values.length === 1 ? values[0] : undefined);
  return { commonName: single(found.commonName), organization: single(found.organization) };
}

/** Node's `getPeerCertificate().subject`: a field given more than once arrives as an array. */
export function subjectOfPeerCertificate(
  subject: Record<string, string | string[] | undefined>,
): CertificateSubject {
  const attributes: Attribute[] = [];
  for (const [type, value] of Object.entries(subject)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      attributes.push([type, one]);
  }
  return subjectOf(attributes);
}

/**
 * Parses the subject DN an ingress forwards: RFC 4514/2253 (`CN=CP-1,O=acme`, what ingress-nginx's
 * `ssl-client-subject-dn` carries; `\,` and `\2C` escapes, quoted values, `+` multi-valued RDNs, `;` separators) or
 * OpenSSL's one-line form (`/O=acme/CN=CP-1`, `\/` and `\xHH` escapes). undefined when it is malformed.
 */
export function parseDistinguishedName(dn: string): CertificateSubject | undefined {
  const attributes = dn.trimStart().startsWith('/') ? parseOneLine(dn.trim()) : parseRfc4514(dn);
  return attributes ? subjectOf(attributes) : undefined;
}

function parseRfc4514(dn: string): Attribute[] | undefined {
  const attributes: Attribute[] = [];
  let index = 0;
  const skipSpaces = () => {
    while (dn[index] === ' ') index += 1;
  };
  while (index < dn.length) {
    skipSpaces();
    const equals = dn.indexOf('=', index);
    if (equals < 0) return undefined;
    const type = dn.slice(index, equals).trim();
    if (!/^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)*|oid\.\d+(?:\.\d+)*)$/i.test(type)) return undefined;
    index = equals + 1;
    skipSpaces();
    const bytes: number[] = [];
    let trailingSpaces = 0;
    if (dn[index] === '"') {
      index += 1;
      while (index < dn.length && dn[index] !== '"') {
        if (dn[index] === '\\') index += 1;
        if (index >= dn.length) return undefined;
        bytes.push(...Buffer.from(dn[index], 'utf8'));
        index += 1;
      }
      if (dn[index] !== '"') return undefined;
      index += 1;
      skipSpaces();
    } else {
      while (index < dn.length && !',;+'.includes(dn[index])) {
        const char = dn[index];
        if (char === '\\') {
          const hex = dn.slice(index + 1, index + 3);
          if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
            bytes.push(parseInt(hex, 16));
            index += 3;
          } else if (index + 1 < dn.length) {
            bytes.push(...Buffer.from(dn[index + 1], 'utf8'));
            index += 2;
          } else {
            return undefined;
          }
          trailingSpaces = 0;
          continue;
        }
        trailingSpaces = char === ' ' ? trailingSpaces + 1 : 0;
        bytes.push(...Buffer.from(char, 'utf8'));
        index += 1;
      }
    }
    // Unescaped spaces before a separator are not part of the value.
    const value = Buffer.from(bytes.slice(0, bytes.length - trailingSpaces)).toString('utf8');
    attributes.push([type, value]);
    if (index < dn.length) {
      if (!',;+'.includes(dn[index])) return undefined;
      index += 1;
      if (index >= dn.length) return undefined;
    }
  }
  return attributes.length > 0 ? attributes : undefined;
}

function parseOneLine(dn: string): Attribute[] | undefined {
  const attributes: Attribute[] = [];
  let current = '';
  const parts: string[] = [];
  for (let index = 1; index < dn.length; index++) {
    const char = dn[index];
    if (char === '\\' && index + 1 < dn.length) {
      const hex = /^x([0-9A-Fa-f]{2})/.exec(dn.slice(index + 1));
      current += hex ? `\\x${hex[1]}` : `\\${dn[index + 1]}`;
      index += hex ? 3 : 1;
    } else if (char === '/') {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  for (const part of parts) {
    const equals = part.indexOf('=');
    if (equals <= 0) return undefined;
    const bytes: number[] = [];
    const raw = part.slice(equals + 1);
    for (let index = 0; index < raw.length; index++) {
      if (raw[index] === '\\') {
        const hex = /^x([0-9A-Fa-f]{2})/.exec(raw.slice(index + 1));
        if (hex) {
          bytes.push(parseInt(hex[1], 16));
          index += 3;
        } else {
          bytes.push(...Buffer.from(raw[index + 1], 'utf8'));
          index += 1;
        }
      } else {
        bytes.push(...Buffer.from(raw[index], 'utf8'));
      }
    }
    attributes.push([part.slice(0, equals), Buffer.from(bytes).toString('utf8')]);
  }
  return attributes;
}
