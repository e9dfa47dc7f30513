/* global process, URL */
/**
 * Installs the dependencies (`npm ci`) when node_modules is missing or older than package-lock.json, so that
 * `npm start`, `npm test`, `npm run bench` and `npm run test:faults` work as the first command typed in a fresh
 * clone: each of them builds first, and package.json runs this before every build (`prebuild`).
 *
 * Plain Node with nothing outside `node:`, because it runs before any dependency exists.
 *
 * "Older" compares the modification times of package-lock.json and node_modules/.package-lock.json, the hidden
 * lockfile npm (7 and later) writes at the end of every install, after it has written package-lock.json itself. So
 * right after `npm ci` or `npm install` (CI runs `npm ci` itself) this does nothing, while a pull or checkout that
 * changes package-lock.json, or an install that stopped half-way, leads to a new `npm ci`. A node_modules that is a
 * symbolic link (one install shared by several checkouts) is never reinstalled from here: it only says so.
 */
import { spawnSync } from 'node:child_process';
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

const modifiedAt = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;

/** Why the dependencies need installing, or undefined when node_modules matches package-lock.json. */
function installReason() {
  const lockfile = modifiedAt(join(rootDir, 'package-lock.json'));
  if (lockfile === undefined) return undefined; // not a checkout of this repository: nothing to compare with
  if (modifiedAt(join(rootDir, 'node_modules')) === undefined) return 'node_modules is missing';
  const installed = modifiedAt(join(rootDir, 'node_modules', '.package-lock.json'));
  if (installed === undefined)
    return 'node_modules was not installed by npm (no node_modules/.package-lock.json)';
  if (installed < lockfile) return 'package-lock.json is newer than node_modules';
  return undefined;
}

const reason = installReason();
const nodeModules = join(rootDir, 'node_modules');
if (reason !== undefined && lstatSync(nodeModules, { throwIfNoEntry: false })?.isSymbolicLink()) {
  process.stderr.write(
    `\n${reason}, but node_modules is a link to ${realpathSync(nodeModules)}, which other checkouts may share: ` +
      'not reinstalling it from here (run npm ci where it lives when it needs updating)\n\n',
  );
} else if (reason !== undefined) {
  process.stdout.write(
    `\n${reason}: installing the dependencies first with npm ci (a minute or so, once)\n\n`,
  );
  // The npm that runs this script (npm sets npm_execpath for scripts), with the node it runs on.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  const result = spawnSync(command, [...args, 'ci', '--no-audit', '--no-fund'], {
    cwd: rootDir,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    const how = result.error
      ? `could not run (${result.error.message})`
      : `failed (exit ${result.status ?? result.signal})`;
    process.stderr.write(`\nnpm ci ${how}; its output is above. Fix that, then run the command again.\n\n`);
    process.exit(1);
  }
  process.stdout.write('\ndependencies installed\n\n');
}
