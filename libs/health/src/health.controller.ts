import { Controller, Get, HttpCode, Inject, Res, SetMetadata } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { HEALTH_INDICATORS, type HealthIndicator, PUBLIC_ROUTE } from './health-indicator.js';

const CHECK_TIMEOUT_MS = 2000;

async function checkWithTimeout(indicator: HealthIndicator): Promise<{ healthy: boolean; detail?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<{ healthy: false; detail: string }>((resolve) => {
    timer = setTimeout(
      () => resolve({ healthy: false, detail: `no answer within ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([indicator.check(), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness says the process runs; readiness says its dependencies answer. Kubernetes restarts on the first and only
 * stops routing on the second, so a database outage does not turn into a restart storm.
 */
@ApiExcludeController()
@SetMetadata(PUBLIC_ROUTE, true)
@Controller('health')
export class HealthController {
  constructor(@Inject(HEALTH_INDICATORS) private readonly indicators: HealthIndicator[]) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ status: string; checks: Record<string, unknown> }> {
    const results = await Promise.all(
      this.indicators.map(async (indicator) => [indicator.name, await checkWithTimeout(indicator)] as const),
    );
    const healthy = results.every(([, result]) => result.healthy);
    void reply.status(healthy ? 200 : 503);
    return { status: healthy ? 'ok' : 'unavailable', checks: Object.fromEntries(results) };
  }
}
