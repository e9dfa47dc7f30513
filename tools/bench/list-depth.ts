import { type HttpLoadResult, httpLoad } from './http-load.js';
import type { Progress } from './progress.js';

export interface ListDepthResult {
  /** The numbered page the deep measurements start from (its items are `(page - 1) * 50` rows into the list). */
  deepPage: number;
  firstPage: HttpLoadResult;
  /** The same depth by page number: LIMIT 50 OFFSET (page - 1) * 50. */
  deepNumberedPage: HttpLoadResult;
  /** The same depth by cursor: the index range starts at the cursor's key. */
  deepCursorPage: HttpLoadResult;
}

/**
 * GET /control/commands at page 1, and `seeded` rows deep by page number and by cursor (a cursor taken from the deep
 * numbered page's `pagination.cursor.next`), each under its own closed-loop load: what keyset pagination saves.
 */
export async function measureListDepth(
  options: { apiUrl: string; token: string; seeded: number; connections: number; seconds: number },
  progress: Progress,
): Promise<ListDepthResult> {
  const base = '/api/v1/control/commands?limit=50';
  // The last full page: as deep as the seeded list goes.
  const deepPage = Math.max(1, Math.floor(options.seeded / 50) - 1);
  const response = await fetch(`${options.apiUrl}${base}&page=${deepPage}`, {
    headers: { authorization: `Bearer ${options.token}` },
  });
  const body = (await response.json()) as { pagination?: { cursor?: { next?: string } } };
  const cursor = body.pagination?.cursor?.next;
  if (!response.ok || cursor === undefined)
    throw new Error(`GET ${base}&page=${deepPage} answered ${response.status} without a next cursor`);
  const load = (label: string, path: string) =>
    httpLoad(
      label,
      {
        baseUrl: options.apiUrl,
        token: options.token,
        paths: [path],
        connections: options.connections,
        seconds: options.seconds,
      },
      progress,
    );
  const firstPage = await load('GET commands page 1', base);
  const deepCursorPage = await load('GET commands deep cursor', `${base}&cursor=${cursor}`);
  // Last: a deep numbered page runs for seconds, and the statements still queued when its load ends keep the
  // database busy for a while after; measured before another load, they would be counted in that load's figures.
  const deepNumberedPage = await load(`GET commands page ${deepPage}`, `${base}&page=${deepPage}`);
  return { deepPage, firstPage, deepNumberedPage, deepCursorPage };
}
