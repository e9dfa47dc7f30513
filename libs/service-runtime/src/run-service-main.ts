import { ConfigError } from '@cpc/config';
import { describeErrorForLog } from '@cpc/logging';

/**
 * The body of every service's main.ts: a configuration problem is printed plainly and exits 78 (EX_CONFIG), any other
 * start-up failure exits 1, so the orchestrator's logs say what is wrong without a stack trace to dig through.
 */
export function runServiceMain(start: () => Promise<unknown>): void {
  // Through a promise, so a configuration read that throws before `start` returns one is handled the same way.
  Promise.resolve()
    .then(start)
    .catch((error: unknown) => {
      if (error instanceof ConfigError) {
        process.stderr.write(`${error.message}\n`);
        process.exit(78);
      }
      process.stderr.write(`start-up failed: ${describeErrorForLog(error)}\n`);
      process.exit(1);
    });
}
