import { describeExit, type ManagedProcess } from './managed-process.js';

export interface ReadinessCheckResult {
  ready: boolean;
  /** What the last attempt saw (e.g. "503 {...}", "connection refused"), for the timeout message. */
  detail: string;
}

export type ReadinessCheck = () => Promise<ReadinessCheckResult>;

export interface WaitForReadyOptions {
  timeoutMs: number;
  /** Pause between attempts (default 100 ms). */
  intervalMs?: number;
  /** What is being waited for, in the error message (e.g. the URL). */
  target: string;
}

/**
 * Polls `check` until it reports ready. Fails early when the process exits, and after `timeoutMs` with what the last
 * check saw and the last lines the process printed: the message alone should say why the service never came up.
 */
export async function waitForReady(
  child: ManagedProcess,
  check: ReadinessCheck,
  options: WaitForReadyOptions,
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let last: ReadinessCheckResult = { ready: false, detail: 'not checked yet' };
  for (;;) {
    if (!child.isRunning) {
      const how = child.exit ? describeExit(child.exit) : 'is not running';
      throw new Error(`${child.name} ${how} before it was ready; its last output:\n${child.tail()}`);
    }
    last = await check();
    if (last.ready) return;
    if (Date.now() >= deadline) {
      throw new Error(
        `${child.name} was not ready within ${options.timeoutMs} ms (${options.target}: ${last.detail}); ` +
          `its last output:\n${child.tail()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}

/** Ready when GET `url` answers 200. */
export function httpReadyCheck(url: string, requestTimeoutMs = 2000): ReadinessCheck {
  return async () => {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(requestTimeoutMs) });
      const body = (await response.text()).slice(0, 300);
      return { ready: response.status === 200, detail: `${response.status} ${body}`.trim() };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { ready: false, detail: cause?.code ?? cause?.message ?? (error as Error).message };
    }
  };
}
