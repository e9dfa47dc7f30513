import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Registry } from 'prom-client';

/** `GET /metrics` in Prometheus' text format, for the services' health listener (never the public API). */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(Registry) private readonly registry: Registry) {}

  @Get()
  @Header('cache-control', 'no-store')
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.header('content-type', this.registry.contentType);
    return this.registry.metrics();
  }
}
