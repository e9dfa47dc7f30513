/**
 * `npm start`: the whole platform on this machine (see README, "What npm start does"). Runs from
 * dist/tools/platform/start-platform.js, so the repository root is three directories up.
 */
import { fileURLToPath } from 'node:url';
import { Platform, PLATFORM_SERVICES, prefixedLineWriter } from '@cpc/platform-launcher';
import { platformBanner } from './banner.js';

const rootDir = fileURLToPath(new URL('../../..', import.meta.url));
const names = ['launcher', 'postgres', 'nats-server', ...PLATFORM_SERVICES];
const width = Math.max(...names.map((name) => name.length));
const prefix = (name: string): string => `[${name}]`.padEnd(width + 3);
const log = (line: string): void => console.log(`${prefix('launcher')}${line}`);

const platform = new Platform({
  rootDir,
  env: process.env,
  log,
  output: (name) => prefixedLineWriter(prefix(name)),
});

let firstSignalAt: number | undefined;
const shutDown = (signal: NodeJS.Signals): void => {
  if (firstSignalAt !== undefined) {
    // The same Ctrl-C can arrive twice (from the terminal and forwarded by npm): only a later one means "now".
    if (Date.now() - firstSignalAt < 1000) return;
    // Children still running get SIGKILL when this process exits.
    log(`${signal} again: killing what is left`);
    process.exit(130);
  }
  firstSignalAt = Date.now();
  log(`${signal}: stopping (Ctrl-C again to kill)`);
  platform.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', shutDown);
process.on('SIGTERM', shutDown);

try {
  const summary = await platform.start();
  console.log(platformBanner(summary));
} catch (error) {
  if (!platform.isStopping) {
    console.error(`\n${prefix('launcher')}could not start the platform: ${(error as Error).message}\n`);
    await platform.stop();
    process.exit(1);
  }
}
