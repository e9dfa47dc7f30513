/** A service's event-loop delay since its previous scrape, in milliseconds, as prom-client reports it. */
export interface ServiceLoopDelay {
  p50: number | null;
  p99: number | null;
  max: number | null;
}

const FIGURES = {
  p50: 'nodejs_eventloop_lag_p50_seconds',
  p99: 'nodejs_eventloop_lag_p99_seconds',
  max: 'nodejs_eventloop_lag_max_seconds',
} as const;

/** The value of an unlabelled (or singly labelled) gauge in a Prometheus text exposition, if present. */
export function gaugeValue(exposition: string, name: string): number | null {
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    const value = Number(rest.slice(rest.lastIndexOf(' ') + 1));
    if (Number.isFinite(value)) return value;
  }
  return null;
}

export function loopDelayOf(exposition: string): ServiceLoopDelay {
  const milliseconds = (name: string) => {
    const seconds = gaugeValue(exposition, name);
    return seconds === null ? null : Math.round(seconds * 1e5) / 100;
  };
  return { p50: milliseconds(FIGURES.p50), p99: milliseconds(FIGURES.p99), max: milliseconds(FIGURES.max) };
}

/**
 * Scrapes every service's GET /metrics. prom-client resets its event-loop delay histogram at every scrape, so each
 * figure covers the time since the previous scrape; a service that cannot be read is left out.
 */
export async function readEventLoopLag(
  urls: Record<string, string>,
): Promise<Record<string, ServiceLoopDelay>> {
  const entries = await Promise.all(
    Object.entries(urls).map(async ([service, url]) => {
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
        if (!response.ok) return undefined;
        return [service, loopDelayOf(await response.text())] as const;
      } catch {
        return undefined;
      }
    }),
  );
  return Object.fromEntries(entries.filter((entry) => entry !== undefined));
}
