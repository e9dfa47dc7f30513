import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = new URL('../../..', import.meta.url).pathname;

describe('the SDK package', () => {
  afterAll(() => rm(`${root}libs/sdk/dist`, { recursive: true, force: true }));

  // Published on its own: it must build without the workspace's path aliases and import as its package.json says.
  it('builds, packs its compiled code and types, and imports from its own dist/', async () => {
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'libs/sdk/tsconfig.lib.json'], {
      cwd: root,
    });
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', './libs/sdk'], { cwd: root });
    const [packed] = JSON.parse(stdout) as { name: string; files: { path: string }[] }[];
    expect(packed.name).toBe('@cpc/sdk');
    expect(packed.files.map((file) => file.path)).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/generated/openapi.d.ts',
      ]),
    );
    const sdk = (await import(`${root}libs/sdk/dist/index.js`)) as Record<string, unknown>;
    expect(Object.keys(sdk)).toEqual(
      expect.arrayContaining(['createPlatformClient', 'retryingFetch', 'AccessTokens']),
    );
  }, 120000);
});
