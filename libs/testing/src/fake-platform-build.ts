import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminCliEntryPath, PLATFORM_SERVICES, serviceEntryPath } from '@cpc/platform-launcher';

const fakeService = fileURLToPath(
  new URL('../../platform-launcher/src/test-fixtures/fake-service.mjs', import.meta.url),
);

/**
 * A temporary root with a `dist/` in which every service entry (main, migrate, the admin CLI) is the launcher's fake
 * service: tests of the harness and of `npm start` that do not depend on the real services being built or working.
 */
export function writeFakePlatformBuild(): string {
  const rootDir = mkdtempSync(join(tmpdir(), 'cpc-fake-build-'));
  writeFileSync(join(rootDir, 'package.json'), '{ "type": "module" }\n');
  const entries = [
    ...PLATFORM_SERVICES.flatMap((service) => [
      serviceEntryPath(rootDir, service, 'main'),
      serviceEntryPath(rootDir, service, 'migrate'),
    ]),
    adminCliEntryPath(rootDir),
  ];
  for (const entry of entries) {
    mkdirSync(dirname(entry), { recursive: true });
    copyFileSync(fakeService, entry);
  }
  return rootDir;
}
