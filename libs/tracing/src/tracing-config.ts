import { ConfigError, EnvReader } from '@cpc/config';

/** OTEL_TRACES_SAMPLER's values (the OpenTelemetry SDK configuration's names). */
export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TracesSampler = (typeof TRACES_SAMPLERS)[number];

/** How a service exports its spans; tracing is off when there is none (readTracingConfig). */
export interface TracingConfig {
  /** `service.name` of every span (OTEL_SERVICE_NAME, else the service's own name). */
  serviceName: string;
  /** Where spans are POSTed as OTLP/HTTP JSON: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  tracesEndpoint: string;
  sampler: TracesSampler;
  /** The ratio of the traceidratio samplers, 0 to 1 (OTEL_TRACES_SAMPLER_ARG, default 1). */
  samplerRatio: number;
}

/** The installed exporter (exporter-trace-otlp-http) sends OTLP as JSON over HTTP and nothing else. */
const SUPPORTED_PROTOCOL = 'http/json';

/**
 * Reads the standard OTEL_* variables. Tracing is off (undefined) unless an OTLP endpoint is configured, and whenever
 * OTEL_SDK_DISABLED is true or OTEL_TRACES_EXPORTER is `none`. Values the SDK would quietly replace by a default (an
 * unknown sampler, a ratio outside 0–1, a protocol the exporter cannot speak) stop the service at start-up instead.
 */
export function readTracingConfig(
  env: NodeJS.ProcessEnv,
  defaultServiceName: string,
): TracingConfig | undefined {
  const reader = new EnvReader(env);
  const disabled = reader.optionalString('OTEL_SDK_DISABLED');
  if (disabled !== undefined && !['true', 'false'].includes(disabled.toLowerCase())) {
    reader.problems.push(`OTEL_SDK_DISABLED must be true or false, got "${disabled}"`);
  }
  const exporter = reader.optionalString('OTEL_TRACES_EXPORTER') ?? 'otlp';
  if (exporter !== 'otlp' && exporter !== 'none') {
    reader.problems.push(`OTEL_TRACES_EXPORTER must be otlp or none, got "${exporter}"`);
  }
  const tracesEndpoint = reader.optionalString('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = reader.optionalString('OTEL_EXPORTER_OTLP_ENDPOINT');
  const endpoint = tracesEndpoint ?? (baseEndpoint && `${baseEndpoint.replace(/\/+$/, '')}/v1/traces`);
  if (endpoint !== undefined) {
    const name = tracesEndpoint ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
    reader.url(name, ['http', 'https']);
  }
  const protocol =
    reader.optionalString('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
    reader.optionalString('OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol !== undefined && protocol !== SUPPORTED_PROTOCOL) {
    reader.problems.push(`OTEL_EXPORTER_OTLP_PROTOCOL must be ${SUPPORTED_PROTOCOL}, got "${protocol}"`);
  }
  const sampler = reader.optionalString('OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on';
  if (!(TRACES_SAMPLERS as readonly string[]).includes(sampler)) {
    reader.problems.push(
      `OTEL_TRACES_SAMPLER must be one of ${TRACES_SAMPLERS.join(', ')}, got "${sampler}"`,
    );
  }
  const ratioText = reader.optionalString('OTEL_TRACES_SAMPLER_ARG');
  const samplerRatio = ratioText === undefined ? 1 : Number(ratioText);
  if (!Number.isFinite(samplerRatio) || samplerRatio < 0 || samplerRatio > 1) {
    reader.problems.push(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${ratioText}"`);
  }
  if (reader.problems.length > 0) throw new ConfigError(defaultServiceName, reader.problems);
  if (disabled?.toLowerCase() === 'true' || exporter === 'none' || endpoint === undefined) return undefined;
  return {
    serviceName: reader.optionalString('OTEL_SERVICE_NAME') ?? defaultServiceName,
    tracesEndpoint: endpoint,
    sampler: sampler as TracesSampler,
    samplerRatio,
  };
}
