import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./ensure-dependencies.mjs', import.meta.url));

/** Stands in for npm (through npm_execpath): records its arguments, then does what `npm ci` leaves behind. */
const FAKE_NPM = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
appendFileSync(process.env.FAKE_NPM_LOG, JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd() }) + '\\n');
if (process.env.FAKE_NPM_EXIT) process.exit(Number(process.env.FAKE_NPM_EXIT));
mkdirSync('node_modules', { recursive: true });
writeFileSync('node_modules/.package-lock.json', '{}');
`;

describe('ensure-dependencies (runs before every build)', () => {
  let root: string;
  const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cpc-ensure-dependencies-'));
    mkdirSync(join(root, 'tools', 'first-run'), { recursive: true });
    copyFileSync(script, join(root, 'tools', 'first-run', 'ensure-dependencies.mjs'));
    writeFileSync(join(root, 'fake-npm.mjs'), FAKE_NPM);
    writeFileSync(join(root, 'package-lock.json'), '{}');
    utimesSync(join(root, 'package-lock.json'), at(10), at(10));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function run(env: Record<string, string> = {}) {
    const result = spawnSync(
      process.execPath,
      [join(root, 'tools', 'first-run', 'ensure-dependencies.mjs')],
      {
        // From elsewhere than the repository root: the script finds the root from where it lies.
        cwd: tmpdir(),
        env: {
          ...process.env,
          npm_execpath: join(root, 'fake-npm.mjs'),
          FAKE_NPM_LOG: join(root, 'npm.log'),
          ...env,
        },
        encoding: 'utf8',
      },
    );
    const npmRuns = (() => {
      try {
        return readFileSync(join(root, 'npm.log'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { args: string[]; cwd: string });
      } catch {
        return [];
      }
    })();
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, npmRuns };
  }

  const installedAt = (seconds: number) => {
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{}');
    utimesSync(join(root, 'node_modules', '.package-lock.json'), at(seconds), at(seconds));
  };

  it('runs npm ci in the repository root when node_modules is missing, and says so', () => {
    const result = run();
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      'node_modules is missing: installing the dependencies first with npm ci (a minute or so, once)',
    );
    expect(result.stdout).toContain('dependencies installed');
    expect(result.npmRuns).toEqual([
      { args: ['ci', '--no-audit', '--no-fund'], cwd: root.replace(/\/$/, '') },
    ]);
  });

  it('does nothing, silently, when the hidden lockfile of the last install is not older than package-lock.json', () => {
    installedAt(10);
    const result = run();
    expect([result.status, result.stdout, result.npmRuns]).toEqual([0, '', []]);
  });

  it('installs again when package-lock.json changed after the last install', () => {
    installedAt(9);
    const result = run();
    expect(result.stdout).toContain('package-lock.json is newer than node_modules: installing');
    expect(result.npmRuns).toHaveLength(1);
  });

  it('installs when node_modules exists but npm did not finish an install into it', () => {
    mkdirSync(join(root, 'node_modules'));
    const result = run();
    expect(result.stdout).toContain('no node_modules/.package-lock.json');
    expect(result.npmRuns).toHaveLength(1);
  });

  it('never reinstalls a node_modules that is a link (shared with other checkouts), and says so', () => {
    const shared = join(root, 'shared-node-modules');
    mkdirSync(shared);
    writeFileSync(join(shared, '.package-lock.json'), '{}');
    utimesSync(join(shared, '.package-lock.json'), at(9), at(9));
    symlinkSync(shared, join(root, 'node_modules'));
    const result = run();
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(
      `package-lock.json is newer than node_modules, but node_modules is a link to ${shared}, which other ` +
        'checkouts may share: not reinstalling it from here',
    );
    expect(result.npmRuns).toEqual([]);
  });

  it('stops with exit 1 and a message when npm ci fails', () => {
    const result = run({ FAKE_NPM_EXIT: '3' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('npm ci failed (exit 3); its output is above');
  });
});
