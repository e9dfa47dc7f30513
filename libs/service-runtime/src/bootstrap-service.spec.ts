import {
  Controller,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { ClientProxyFactory, MessagePattern, Payload, Transport } from '@nestjs/microservices';
import type { Histogram } from 'prom-client';
import { readCommonServiceConfig, EnvReader } from '@cpc/config';
import { NotFoundError, ServiceUnavailableError } from '@cpc/errors';
import { currentRequestDeadline } from '@cpc/logging';
import { NatsRequestMetrics, ServiceClient } from '@cpc/nats';
import { type NatsTestServer, startNatsTestServer } from '@cpc/testing';
import { bootstrapService, type RunningService } from './bootstrap-service.js';

const hookCalls = { init: 0, bootstrap: 0 };

@Injectable()
class LifecycleCounter implements OnModuleInit, OnApplicationBootstrap {
  onModuleInit(): void {
    hookCalls.init += 1;
  }
  onApplicationBootstrap(): void {
    hookCalls.bootstrap += 1;
  }
}

@Module({ providers: [LifecycleCounter] })
class CountingModule {}

describe('bootstrapService', () => {
  let nats: NatsTestServer;
  let service: RunningService | undefined;

  beforeAll(async () => {
    nats = await startNatsTestServer();
  });
  afterAll(async () => {
    await service?.app.close();
    await nats.stop();
  });

  it('runs each lifecycle hook once although the service is HTTP and NATS at the same time', async () => {
    const config = readCommonServiceConfig(
      new EnvReader({ NATS_URL: nats.url, HEALTH_PORT: '0', LOG_LEVEL: 'silent' }),
      0,
    );
    service = await bootstrapService({
      serviceName: 'lifecycle-test',
      module: CountingModule,
      config,
      natsRequestHandlers: true,
    });
    expect(hookCalls).toEqual({ init: 1, bootstrap: 1 });
  });
});

const ECHO_SUBJECT = 'metrics-test.echo.v1';
const DEADLINE_SUBJECT = 'metrics-test.deadline.v1';

@Controller()
class EchoController {
  @MessagePattern(ECHO_SUBJECT)
  echo(@Payload() payload: { fail?: boolean }): { echoed: true } {
    if (payload.fail) throw new NotFoundError('nothing here');
    return { echoed: true };
  }

  @MessagePattern(DEADLINE_SUBJECT)
  deadline(): { deadlineAt: number | null; at: number } {
    return { deadlineAt: currentRequestDeadline() ?? null, at: Date.now() };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('bootstrapService metrics', () => {
  let nats: NatsTestServer;
  let service: RunningService | undefined;
  let client: ServiceClient | undefined;
  const clientMetrics = NatsRequestMetrics.unexposed();

  beforeAll(async () => {
    nats = await startNatsTestServer();
    const config = readCommonServiceConfig(
      new EnvReader({ NATS_URL: nats.url, HEALTH_PORT: '0', LOG_LEVEL: 'silent' }),
      0,
    );
    service = await bootstrapService({
      serviceName: 'metrics-test',
      module: EchoModule,
      config,
      natsRequestHandlers: true,
    });
    client = new ServiceClient(
      ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: [nats.url] } }),
      5000,
      clientMetrics,
    );
  });
  afterAll(async () => {
    await client?.onApplicationShutdown();
    await service?.app.close();
    await nats.stop();
  });

  const count = async (metric: Histogram, labels: Record<string, string>): Promise<number> => {
    const { values } = await metric.get();
    const found = values.find(
      (value) =>
        value.metricName?.endsWith('_count') &&
        Object.entries(labels).every(([key, label]) => value.labels[key] === label),
    );
    return found?.value ?? 0;
  };

  it('serves GET /metrics on the health port, with the latency of each handler and each request by outcome', async () => {
    await client!.request(ECHO_SUBJECT, {});
    await client!.request(ECHO_SUBJECT, {});
    await expect(client!.request(ECHO_SUBJECT, { fail: true })).rejects.toMatchObject({ code: 'not_found' });

    expect(await count(clientMetrics.duration, { subject: ECHO_SUBJECT, outcome: 'ok' })).toBe(2);
    expect(await count(clientMetrics.duration, { subject: ECHO_SUBJECT, outcome: 'error' })).toBe(1);

    const response = await fetch(`http://127.0.0.1:${service!.healthPort}/metrics`);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain(`nats_handler_duration_seconds_count{subject="${ECHO_SUBJECT}",outcome="ok"} 2`);
    expect(body).toContain(
      `nats_handler_duration_seconds_count{subject="${ECHO_SUBJECT}",outcome="error"} 1`,
    );
    expect(body).toMatch(/^process_resident_memory_bytes \d/m);
  });

  it("hands the handler its caller's deadline: the client's timeout from when the request arrived", async () => {
    const sentAt = Date.now();
    const { deadlineAt, at } = await client!.request<{ deadlineAt: number; at: number }>(
      DEADLINE_SUBJECT,
      {},
    );
    expect(deadlineAt).toBeGreaterThanOrEqual(sentAt + 5000);
    expect(deadlineAt).toBeLessThanOrEqual(at + 5000);
  });

  it('counts a request nobody answers as unavailable', async () => {
    await expect(client!.request('metrics-test.nobody.v1', {})).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(
      await count(clientMetrics.duration, { subject: 'metrics-test.nobody.v1', outcome: 'unavailable' }),
    ).toBe(1);
  });
});
