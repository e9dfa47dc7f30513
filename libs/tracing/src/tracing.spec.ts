import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  activeTraceparent,
  inChildSpan,
  runInSpan,
  setTraceparentHeader,
  SpanKind,
  startEntrySpan,
  startTracing,
  stopTracing,
  TRACEPARENT_HEADER,
  tracingOn,
} from './tracing.js';
import type { TracingConfig } from './tracing-config.js';

const config: TracingConfig = {
  serviceName: 'test-service',
  tracesEndpoint: 'http://127.0.0.1:1/v1/traces',
  sampler: 'parentbased_always_on',
  samplerRatio: 1,
};

class Headers {
  readonly values = new Map<string, string>();
  set(name: string, value: string): void {
    this.values.set(name, value);
  }
}

describe('tracing off (the default)', () => {
  it('takes the no-op path: no span is created, nothing is propagated', async () => {
    expect(startTracing(undefined)).toBe(false);
    expect(tracingOn()).toBe(false);
    expect(startEntrySpan('POST /x', {})).toBeUndefined();
    const seen = await inChildSpan('child', {}, (span) => Promise.resolve(span));
    expect(seen).toBeUndefined();
    const fromHeader = await inChildSpan(
      'child',
      { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      (span) => Promise.resolve(span),
    );
    expect(fromHeader).toBeUndefined();
    expect(activeTraceparent()).toBeUndefined();
    const headers = new Headers();
    expect(setTraceparentHeader(headers)).toBe(false);
    expect(headers.values.size).toBe(0);
  });
});

describe('tracing on', () => {
  const exporter = new InMemorySpanExporter();

  beforeAll(() => {
    expect(startTracing(config, { spanProcessor: new SimpleSpanProcessor(exporter) })).toBe(true);
  });
  afterAll(() => stopTracing());
  beforeEach(() => exporter.reset());

  it('links a span tree across a header hop and a stored traceparent', async () => {
    const entry = startEntrySpan('POST /api/v1/control/commands', { 'http.request.method': 'POST' })!;
    const headers = new Headers();
    await runInSpan(entry, () =>
      inChildSpan('send control.commands.create.v1', { kind: SpanKind.CLIENT }, () => {
        expect(setTraceparentHeader(headers)).toBe(true);
        return Promise.resolve();
      }),
    );
    entry.end();
    // The receiving side (another process in production) continues from the header, then stores its traceparent.
    const stored = await inChildSpan(
      'process control.commands.create.v1',
      { kind: SpanKind.SERVER, traceparent: headers.values.get(TRACEPARENT_HEADER) },
      () => Promise.resolve(activeTraceparent()),
    );
    await inChildSpan('deliver command', { traceparent: stored }, (span) => {
      span?.setAttribute('cpc.command.status', 'accepted');
      return Promise.resolve();
    });

    const spans = exporter.getFinishedSpans();
    const byName = new Map(spans.map((span) => [span.name, span]));
    const root = byName.get('POST /api/v1/control/commands')!;
    const send = byName.get('send control.commands.create.v1')!;
    const processed = byName.get('process control.commands.create.v1')!;
    const deliver = byName.get('deliver command')!;
    expect(spans).toHaveLength(4);
    expect(root.parentSpanContext).toBeUndefined();
    expect(send.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(processed.parentSpanContext?.spanId).toBe(send.spanContext().spanId);
    expect(deliver.parentSpanContext?.spanId).toBe(processed.spanContext().spanId);
    for (const span of spans) expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(deliver.attributes['cpc.command.status']).toBe('accepted');
    expect(send.kind).toBe(SpanKind.CLIENT);
    expect(root.resource.attributes['service.name']).toBe('test-service');
  });

  it('continues a caller trace named by an HTTP traceparent', () => {
    const span = startEntrySpan('GET /x', {}, '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')!;
    span.end();
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
  });

  it('creates no child of an unsampled, missing or malformed parent', async () => {
    for (const traceparent of [
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00',
      null,
      undefined,
      'garbage',
    ]) {
      expect(await inChildSpan('child', { traceparent }, (span) => Promise.resolve(span))).toBeUndefined();
    }
    expect(
      await inChildSpan('child without an active span', {}, (span) => Promise.resolve(span)),
    ).toBeUndefined();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it('records a failure as the span status and rethrows', async () => {
    const entry = startEntrySpan('entry', {})!;
    await expect(
      runInSpan(entry, () => inChildSpan('failing', {}, () => Promise.reject(new Error('boom')))),
    ).rejects.toThrow('boom');
    entry.end();
    const failing = exporter.getFinishedSpans().find((span) => span.name === 'failing')!;
    expect(failing.status).toEqual({ code: 2, message: 'boom' });
  });
});
