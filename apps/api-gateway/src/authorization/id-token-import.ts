import type { FastifyInstance } from 'fastify';
import type { CreateIdTokenBody } from './id-token.dto.js';

export const NDJSON_CONTENT_TYPE = 'application/x-ndjson';

/** The import route's path as Fastify registers it (the literal colon of `id-tokens:import`). */
const IMPORT_ROUTE = /\/authorization\/id-tokens::?import$/;

/**
 * Bytes of one part of an import sent to assets-service: far below NATS's default 1 MiB message limit, with room
 * for the request envelope.
 */
const IMPORT_PART_MAX_BYTES = 256 * 1024;

/**
 * The id-token import takes a larger body than other routes (`importBodyLimitBytes`), and NDJSON: each non-empty
 * line one token, parsed into the `{id_tokens: [...]}` the JSON form has; a line that is not JSON stays a string and
 * fails validation as `id_tokens[<index>]`.
 */
export function acceptIdTokenImports(fastify: FastifyInstance, importBodyLimitBytes: number): void {
  fastify.addHook('onRoute', (route) => {
    if (IMPORT_ROUTE.test(route.url)) route.bodyLimit = importBodyLimitBytes;
  });
  fastify.addContentTypeParser(NDJSON_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    const lines = (body as string).split('\n').filter((line) => line.trim() !== '');
    done(null, { id_tokens: lines.map(parseLine) });
  });
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return line;
  }
}

/** The tokens in parts of at most IMPORT_PART_MAX_BYTES of JSON, each with the index of its first token. */
export function importParts(tokens: CreateIdTokenBody[]): { offset: number; tokens: CreateIdTokenBody[] }[] {
  const parts: { offset: number; tokens: CreateIdTokenBody[] }[] = [];
  let current: CreateIdTokenBody[] = [];
  let bytes = 0;
  tokens.forEach((token, index) => {
    const size = Buffer.byteLength(JSON.stringify(token)) + 1;
    if (current.length > 0 && bytes + size > IMPORT_PART_MAX_BYTES) {
      parts.push({ offset: index - current.length, tokens: current });
      current = [];
      bytes = 0;
    }
    current.push(token);
    bytes += size;
  });
  parts.push({ offset: tokens.length - current.length, tokens: current });
  return parts;
}
