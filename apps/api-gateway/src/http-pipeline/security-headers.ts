import type { FastifyInstance, FastifyRequest } from 'fastify';

export type HeaderSet = Readonly<Record<string, string>>;

/** Every answer, whatever it is: no MIME sniffing, no referrer leaks, never framed. */
const BASE_HEADERS: HeaderSet = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** API and token answers: JSON that no cache keeps (tokens, tenant data) and that loads nothing when opened. */
export const API_ANSWER_HEADERS: HeaderSet = {
  ...BASE_HEADERS,
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

/** The OpenAPI browser (/docs): its own scripts, styles and images only. */
const DOCS_UI_HEADERS: HeaderSet = {
  ...BASE_HEADERS,
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
};

/**
 * The management console (/console): scripts, styles, fonts and images from its own files only (no inline script,
 * no eval), API calls to the same origin only; inline styles are allowed because the component library (Mantine)
 * sets its CSS variables and some positions through `style`. Caching is the console's own (serve-console.ts): hashed
 * files for a year, index.html never without asking again.
 */
export const CONSOLE_HEADERS: HeaderSet = {
  ...BASE_HEADERS,
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
    "frame-ancestors 'none'",
};

/** Header sets by path prefix, the first match wins; everything else gets API_ANSWER_HEADERS. */
const HEADERS_BY_PATH_PREFIX: { prefix: string; headers: HeaderSet }[] = [
  { prefix: '/docs', headers: DOCS_UI_HEADERS },
  { prefix: '/console', headers: CONSOLE_HEADERS },
];

/** Headers that name the software (and so its version) behind the API. */
const REVEALING_HEADERS = ['server', 'x-powered-by'];

export function securityHeadersFor(url: string): HeaderSet {
  const path = url.split('?', 1)[0];
  const match = HEADERS_BY_PATH_PREFIX.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
  return match?.headers ?? API_ANSWER_HEADERS;
}

export interface SecurityHeaderOptions {
  /** `Strict-Transport-Security` max-age on answers to requests that came over HTTPS; 0 sends none. */
  hstsMaxAgeSeconds: number;
}

/**
 * Sets the security headers on every answer Fastify sends (success, error, 404, 413 alike), in onSend: the last
 * moment before the head is written, after any handler or error handler. HSTS only where the request came over
 * HTTPS (the ingress's X-Forwarded-Proto, believed from TRUSTED_PROXIES only): a browser ignores it over plain HTTP.
 */
export function attachSecurityHeaders(fastify: FastifyInstance, options: SecurityHeaderOptions): void {
  const hsts = options.hstsMaxAgeSeconds > 0 ? `max-age=${options.hstsMaxAgeSeconds}` : undefined;
  fastify.addHook('onSend', async (request: FastifyRequest, reply) => {
    for (const [name, value] of Object.entries(securityHeadersFor(request.url))) {
      void reply.header(name, value);
    }
    if (hsts && request.protocol === 'https') void reply.header('strict-transport-security', hsts);
    for (const name of REVEALING_HEADERS) void reply.removeHeader(name);
  });
}

/** The same headers as raw header lines, for the answers written to the socket before Fastify sees a request. */
export function rawSecurityHeaderLines(): string {
  return Object.entries(API_ANSWER_HEADERS)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}
