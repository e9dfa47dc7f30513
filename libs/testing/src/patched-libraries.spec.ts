import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspace = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(workspace, path), 'utf8')) as T;

interface Dependencies {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const manifest = readJson<Dependencies>('package.json');
const lockRoot = readJson<{ packages: Record<string, Dependencies> }>('package-lock.json').packages[''];
const specifier = (owner: Dependencies | undefined, name: string) =>
  owner?.dependencies?.[name] ?? owner?.devDependencies?.[name];

/** The rows `| `package` | x.y.z | ...` of the table at the top of docs/patched-libraries.md. */
const pinned = [
  ...readFileSync(join(workspace, 'docs', 'patched-libraries.md'), 'utf8').matchAll(
    /^\| `([^`]+)` +\| (\d+\.\d+\.\d+) +\|/gm,
  ),
].map(([, name, version]) => ({ name, version }));

/**
 * The libraries whose internals the code patches stay at the version the patches were checked against: the table of
 * docs/patched-libraries.md, package.json, the lockfile's root entry and what is installed say the same exact version.
 */
describe('patched libraries (docs/patched-libraries.md)', () => {
  it('lists the patched libraries', () => {
    expect(pinned.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['ocpp-rpc', '@nats-io/nats-core', 'typeorm']),
    );
  });

  it.each(pinned)('$name is pinned to exactly $version everywhere', ({ name, version }) => {
    const installed = readJson<{ version: string }>(join('node_modules', name, 'package.json')).version;
    const found = {
      'package.json': specifier(manifest, name),
      'package-lock.json (root)': specifier(lockRoot, name),
      installed,
    };
    const disagreeing = Object.entries(found).filter(([, value]) => value !== version);
    if (disagreeing.length > 0) {
      throw new Error(
        `${name} is pinned to ${version} in docs/patched-libraries.md because the code patches its internals, but ` +
          `${disagreeing.map(([where, value]) => `${where} has ${value ?? 'nothing'}`).join(', ')}. ` +
          'Follow "Upgrading one of them" in docs/patched-libraries.md.',
      );
    }
  });
});
