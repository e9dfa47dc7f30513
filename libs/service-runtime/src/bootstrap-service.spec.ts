import { Injectable, Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { readCommonServiceConfig, EnvReader } from '@cpc/config';
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
