import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the services exported during a bench run. */
export interface ExportedTraces {
  requests: number;
  bytes: number;
  spans: number;
}

/**
 * The OTLP/HTTP endpoint of a traced bench run (--trace-sampling): answers every export at once and counts it, without
 * decoding it beyond counting its spans, so that the load generator's share of the CPU stays the same.
 */
export class OtlpSink {
  readonly exported: ExportedTraces = { requests: 0, bytes: 0, spans: 0 };

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<OtlpSink> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const sink = new OtlpSink(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        sink.exported.requests += 1;
        sink.exported.bytes += body.length;
        sink.exported.spans += countSpans(body.toString('utf8'));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    return sink;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Spans in an OTLP JSON export: each has one `"spanId"` key (parents are `"parentSpanId"`). */
export function countSpans(json: string): number {
  let count = 0;
  for (let at = json.indexOf('"spanId"'); at !== -1; at = json.indexOf('"spanId"', at + 8)) count += 1;
  return count;
}

/** The services' OTEL_* variables for a bench run traced at `ratio` (0 to 1) into `sink`. */
export function tracingEnvironment(sink: OtlpSink, ratio: number): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: String(ratio),
  };
}
