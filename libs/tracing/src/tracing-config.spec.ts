import { ConfigError } from '@cpc/config';
import { readTracingConfig } from './tracing-config.js';

describe('readTracingConfig', () => {
  it('is off unless an endpoint is configured, and when disabled', () => {
    expect(readTracingConfig({}, 'svc')).toBeUndefined();
    expect(
      readTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }, 'svc'),
    ).toBeUndefined();
    expect(
      readTracingConfig(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' },
        'svc',
      ),
    ).toBeUndefined();
  });

  it('reads the standard variables', () => {
    expect(
      readTracingConfig(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.01',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        },
        'command-service',
      ),
    ).toEqual({
      serviceName: 'command-service',
      tracesEndpoint: 'http://collector:4318/v1/traces',
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.01,
    });
    expect(
      readTracingConfig(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/custom',
          OTEL_SERVICE_NAME: 'cs-eu-1',
        },
        'command-service',
      ),
    ).toMatchObject({
      serviceName: 'cs-eu-1',
      tracesEndpoint: 'http://collector:4318/custom',
      sampler: 'parentbased_always_on',
    });
  });

  it('stops at start-up on values the SDK would quietly replace', () => {
    const read = () =>
      readTracingConfig(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://x',
          OTEL_TRACES_SAMPLER: 'sometimes',
          OTEL_TRACES_SAMPLER_ARG: '2',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
          OTEL_SDK_DISABLED: 'maybe',
        },
        'svc',
      );
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(/OTEL_TRACES_SAMPLER must be one of/);
    expect(read).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/);
    expect(read).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL must be http\/json/);
    expect(read).toThrow(/OTEL_SDK_DISABLED must be true or false/);
    expect(read).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must use http or https/);
  });
});
