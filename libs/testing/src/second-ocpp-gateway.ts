import { fileURLToPath } from 'node:url';
import { ServiceProcess } from '@cpc/platform-launcher';
import { findFreePort } from './free-port.js';
import type { PlatformUnderTest } from './platform-under-test.js';

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Another ocpp-gateway replica of a running platform (its own ports, the platform's NATS and settings). */
export async function startAnotherOcppGateway(
  platform: PlatformUnderTest,
  env: Record<string, string> = {},
): Promise<{ gateway: ServiceProcess; ocppUrl: string }> {
  const [ocppPort, healthPort] = [await findFreePort(), await findFreePort()];
  const gateway = new ServiceProcess({
    rootDir: repositoryRoot,
    service: 'ocpp-gateway',
    env: {
      ...process.env,
      ...platform.env,
      ...platform.natsLogin('ocpp-gateway'),
      OCPP_PORT: String(ocppPort),
      HEALTH_PORT: String(healthPort),
      ...env,
    },
  });
  await gateway.start();
  return { gateway, ocppUrl: `ws://127.0.0.1:${ocppPort}` };
}
