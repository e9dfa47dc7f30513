import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { enumOf, type OpenApiDocument } from './command-schemas';
import { useSession } from './context';
import { pollWithBackoff, POLL } from './polling';
import type { Pagination } from './types';

export type Query = Record<string, string | number | boolean | undefined>;

/**
 * One page of a list route (`{<key>: [...], pagination}`), asked again every POLL.listMs while shown; `live` lists
 * (what an operator watches change: a webhook's deliveries, a controller's events) every POLL.liveMs.
 */
export function useList<T>(
  path: string,
  key: string,
  query: Query,
  options: { enabled?: boolean; live?: boolean } = {},
) {
  const session = useSession();
  return useQuery({
    queryKey: [path, query],
    queryFn: () => session.request<Record<string, unknown>>('GET', path, { query }),
    select: (body) => ({
      items: (body[key] ?? []) as T[],
      pagination: body.pagination as Pagination | undefined,
    }),
    placeholderData: keepPreviousData,
    refetchInterval: pollWithBackoff(options.live ? POLL.liveMs : POLL.listMs),
    enabled: options.enabled ?? true,
  });
}

/** One object of a read route (`{<key>: {...}}`); `live` polls it every POLL.liveMs (with backoff on failures). */
export function useItem<T>(
  path: string,
  key: string,
  options: { live?: boolean | ((item: T | undefined) => boolean); enabled?: boolean } = {},
) {
  const session = useSession();
  return useQuery({
    queryKey: [path],
    queryFn: () => session.request<Record<string, unknown>>('GET', path),
    select: (body) => body[key] as T,
    enabled: options.enabled ?? true,
    refetchInterval: (query) => {
      const item = query.state.data?.[key] as T | undefined;
      const live = typeof options.live === 'function' ? options.live(item) : options.live;
      return live ? pollWithBackoff(POLL.liveMs)(query) : false;
    },
  });
}

/** The API's own OpenAPI document (public, same origin), fetched once: the source of forms and of allowed values. */
export function useOpenApi() {
  const session = useSession();
  return useQuery({
    queryKey: ['openapi'],
    queryFn: () => session.request<OpenApiDocument>('GET', '/api/v1/openapi.json'),
    staleTime: Infinity,
  });
}

/** The values a property of a schema of the document allows (empty until the document is there). */
export function useEnum(schemaName: string, property: string): string[] {
  return enumOf(useOpenApi().data, schemaName, property);
}
