/** The part of autocannon's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: { method?: string; path: string }[];
  }
  interface AutocannonResult {
    requests: { average: number; total: number };
    latency: { p50: number; p97_5: number; p99: number; max: number; average: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
  }
  interface AutocannonInstance extends PromiseLike<AutocannonResult> {
    on(event: 'tick', listener: (counter: { counter: number }) => void): void;
  }
  function autocannon(options: AutocannonOptions): AutocannonInstance;
  export default autocannon;
}
