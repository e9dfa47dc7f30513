import autocannon from 'autocannon';
import type { Progress } from './progress.js';

export interface HttpLoadResult {
  requestsPerSecond: number;
  total: number;
  non2xx: number;
  errors: number;
  latencyMs: { p50: number; p97_5: number; p99: number; max: number };
}

/** Closed-loop HTTP load with autocannon: `connections` keep-alive connections, each sending as fast as answered. */
export async function httpLoad(
  label: string,
  options: { baseUrl: string; token: string; paths: string[]; connections: number; seconds: number },
  progress: Progress,
): Promise<HttpLoadResult> {
  const instance = autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.seconds,
    headers: { authorization: `Bearer ${options.token}` },
    requests: options.paths.map((path) => ({ method: 'GET', path })),
  });
  let elapsed = 0;
  instance.on('tick', ({ counter }) => {
    elapsed += 1;
    progress.update(`${label}: ${counter} req/s (${elapsed}/${options.seconds} s)`);
  });
  const result = await instance;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    latencyMs: {
      p50: result.latency.p50,
      p97_5: result.latency.p97_5,
      p99: result.latency.p99,
      max: result.latency.max,
    },
  };
}
