import { Controller, Get, Inject, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Counter, Registry } from 'prom-client';
import { MetricsListener, MetricsModule } from './metrics.module.js';

/** A feature that owns a metric, the way services register theirs. */
@Controller('work')
class WorkController {
  private readonly done: Counter;

  constructor(@Inject(Registry) registry: Registry) {
    this.done = new Counter({ name: 'work_done_total', help: 'work done', registers: [registry] });
  }

  @Get()
  work(): { ok: true } {
    this.done.inc();
    return { ok: true };
  }
}

describe('MetricsModule', () => {
  describe("on the app's own HTTP listener", () => {
    let app: NestFastifyApplication;
    let base: string;

    beforeAll(async () => {
      @Module({ imports: [MetricsModule.register({ on: 'app' })], controllers: [WorkController] })
      class AppModule {}
      app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), {
        logger: false,
      });
      await app.listen(0, '127.0.0.1');
      base = await app.getUrl();
    });
    afterAll(() => app?.close());

    it('answers GET /metrics in the Prometheus text format with the process metrics and the features’ own', async () => {
      await fetch(`${base}/work`);
      await fetch(`${base}/work`);
      const response = await fetch(`${base}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const body = await response.text();
      expect(body).toMatch(/^process_cpu_user_seconds_total \d/m);
      expect(body).toMatch(/^nodejs_heap_size_used_bytes \d/m);
      expect(body).toMatch(/^work_done_total 2$/m);
    });
  });

  describe('on a port of its own', () => {
    let app: INestApplicationContext;
    let base: string;

    beforeAll(async () => {
      @Module({ imports: [MetricsModule.register({ on: 'own-port', port: 0 })] })
      class AppModule {}
      app = await NestFactory.createApplicationContext(AppModule, { logger: false });
      base = `http://127.0.0.1:${app.get(MetricsListener).port}`;
    });

    it('answers GET /metrics there and 404 to anything else', async () => {
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^process_cpu_user_seconds_total \d/m);
      expect((await fetch(`${base}/health/ready`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
    });

    it('stops listening when the application closes', async () => {
      await app.close();
      await expect(fetch(`${base}/metrics`)).rejects.toThrow();
    });
  });

  it('gives every application its own registry, so two in one process never collide', async () => {
    @Module({ imports: [MetricsModule.register({ on: 'app' })], controllers: [WorkController] })
    class AppModule {}
    const first = await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false });
    const second = await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false });
    try {
      expect(first.get(Registry)).not.toBe(second.get(Registry));
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
