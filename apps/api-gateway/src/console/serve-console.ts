import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';

export const CONSOLE_PATH = '/console';

/**
 * Where the console's build is (`npm run build`: Vite writes dist/apps/console): beside the compiled gateway
 * (dist/apps/api-gateway/…) or, when the gateway runs from source (ts-jest), under the repository's dist/.
 */
export function consoleBuildDirectory(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [resolve(here, '../../../console'), resolve(here, '../../../../dist/apps/console')];
  return candidates.find((directory) => existsSync(join(directory, 'assets'))) ?? candidates[0];
}

/**
 * The management console at /console: its hashed files under /console/assets (kept by browsers for a year, each
 * name changes with its content; `.br`/`.gz` twins written by the build are sent to browsers that accept them), and
 * index.html for /console and every other path under it (the console's own routes), never kept without asking
 * again. Its security headers and CSP: security-headers.ts. Without a build the paths answer 404 saying so.
 */
export async function serveConsole(
  app: NestFastifyApplication,
  directory = consoleBuildDirectory(),
): Promise<void> {
  const indexFile = join(directory, 'index.html');
  const fastify = app.getHttpAdapter().getInstance();
  if (existsSync(join(directory, 'assets'))) {
    // Loaded here, not at the top: @fastify/static needs require(esm), which Jest's module system lacks, and the
    // OpenAPI generator (run in Jest) imports this file's module graph without serving anything.
    const { default: fastifyStatic } = await import('@fastify/static');
    await app.register(fastifyStatic, {
      root: join(directory, 'assets'),
      prefix: `${CONSOLE_PATH}/assets/`,
      decorateReply: false,
      preCompressed: true,
      immutable: true,
      maxAge: '365d',
      index: false,
      dotfiles: 'deny',
    });
  }
  // Read on every request (a few hundred bytes): a rebuild while the gateway runs is served at once.
  const answerIndex = async (_request: unknown, reply: FastifyReply) => {
    const index = await readFile(indexFile).catch(() => null);
    if (!index) return reply.code(404).send({ error: 'the console is not built here: run npm run build' });
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index);
  };
  fastify.get(CONSOLE_PATH, answerIndex);
  fastify.get(`${CONSOLE_PATH}/*`, answerIndex);
}
