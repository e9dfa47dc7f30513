/* global process, fetch, AbortSignal */
// The image's HEALTHCHECK: asks the service running as PID 1 for /health/ready, on the port it really uses (read
// from its own environment, which `docker exec` does not share). One-shot commands (migrations, admin CLI) count as
// healthy. Kubernetes ignores this and uses the Deployments' probes.
import { readFileSync } from 'node:fs';
import { PLATFORM_SERVICES, readinessUrl } from '../../dist/libs/platform-launcher/src/platform-services.js';

const pid = process.env.HEALTHCHECK_PID ?? '1';
const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
const service = PLATFORM_SERVICES.find((name) =>
  args.some((arg) => arg.endsWith(`apps/${name}/src/main.js`)),
);
if (!service) process.exit(0);

const environment = Object.fromEntries(
  readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter((entry) => entry.includes('='))
    .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
);
try {
  const response = await fetch(readinessUrl(service, environment), { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
