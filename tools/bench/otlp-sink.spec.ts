import { countSpans, OtlpSink, tracingEnvironment } from './otlp-sink.js';

describe('the bench OTLP sink', () => {
  it('counts the spans of an export and answers it', async () => {
    const sink = await OtlpSink.start();
    try {
      const body = JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: [{ spanId: 'a' }, { spanId: 'b', parentSpanId: 'a' }] }] }],
      });
      const response = await fetch(`${sink.url}/v1/traces`, { method: 'POST', body });
      expect(response.status).toBe(200);
      expect(sink.exported).toEqual({ requests: 1, bytes: body.length, spans: 2 });
      expect(countSpans('{}')).toBe(0);
      expect(tracingEnvironment(sink, 0.01)).toMatchObject({
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_TRACES_SAMPLER_ARG: '0.01',
      });
    } finally {
      await sink.stop();
    }
  });
});
