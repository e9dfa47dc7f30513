import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLATFORM_SERVICES, SERVICE_V8_FLAGS } from './platform-services.js';

const ENTRYPOINT = join(import.meta.dirname, '..', '..', '..', 'deploy', 'docker', 'entrypoint.sh');

/** The V8 flags the container image's entrypoint starts each service with (beyond --enable-source-maps). */
function entrypointFlags(): Map<string, string[]> {
  const flags = new Map<string, string[]>();
  const branch =
    /^\s*([a-z| -]+)\)\n\s*exec node --enable-source-maps ((?:--\S+ )*)"dist\/apps\/\$1\/src\/main\.js"/gm;
  for (const [, services, serviceFlags] of readFileSync(ENTRYPOINT, 'utf8').matchAll(branch)) {
    for (const service of services.split('|').map((name) => name.trim()))
      flags.set(service, serviceFlags.trim() === '' ? [] : serviceFlags.trim().split(' '));
  }
  return flags;
}

describe('service V8 flags', () => {
  it('are the same in the container image as in the launcher', () => {
    const inImage = entrypointFlags();
    for (const service of PLATFORM_SERVICES)
      expect([service, inImage.get(service)]).toEqual([service, SERVICE_V8_FLAGS[service]]);
  });
});
