/**
 * `npm run nats:config`: writes the NATS deployment files generated from NATS_USERS (natsConfigFiles). Runs from
 * dist/tools/nats-config/, so the repository root is three directories up.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { natsConfigFiles } from './nats-config-files.js';

const rootDir = fileURLToPath(new URL('../../..', import.meta.url));
for (const [path, content] of Object.entries(natsConfigFiles())) {
  writeFileSync(join(rootDir, path), content);
  console.log(`wrote ${path}`);
}
