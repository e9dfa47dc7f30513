import {
  type Attributes,
  context,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { parseTraceParent } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { readTracingConfig, type TracesSampler, type TracingConfig } from './tracing-config.js';

export { SpanKind, SpanStatusCode, type Span, type Attributes };

/** The W3C Trace Context header, in HTTP requests and NATS message headers alike. */
export const TRACEPARENT_HEADER = 'traceparent';

/** The service's tracer while tracing is on; undefined is the no-op path, where no span object is ever created. */
let tracer: Tracer | undefined;
let provider: BasicTracerProvider | undefined;

export interface TracingStartOptions {
  /** Replaces the OTLP export (tests: a SimpleSpanProcessor over an InMemorySpanExporter). */
  spanProcessor?: SpanProcessor;
}

function samplerFor(name: TracesSampler, ratio: number): Sampler {
  const root =
    name === 'always_off' || name === 'parentbased_always_off'
      ? new AlwaysOffSampler()
      : name === 'traceidratio' || name === 'parentbased_traceidratio'
        ? new TraceIdRatioBasedSampler(ratio)
        : new AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/**
 * Turns tracing on for this process (once, at start-up; a config of undefined leaves it off): spans go to the OTLP
 * endpoint in batches, and the active span follows async work (AsyncLocalStorage). Returns whether it is on.
 */
export function startTracing(config: TracingConfig | undefined, options: TracingStartOptions = {}): boolean {
  if (!config || tracer) return tracer !== undefined;
  const spanProcessor =
    options.spanProcessor ?? new BatchSpanProcessor(new OTLPTraceExporter({ url: config.tracesEndpoint }));
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
    sampler: samplerFor(config.sampler, config.samplerRatio),
    spanProcessors: [spanProcessor],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer('charging-platform-core');
  return true;
}

/** Exports the spans still buffered and turns tracing off (shutdown; tests). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  tracer = undefined;
  provider = undefined;
  if (!stopping) return;
  await stopping.forceFlush().catch(() => undefined);
  await stopping.shutdown().catch(() => undefined);
  trace.disable();
  context.disable();
}

export function tracingOn(): boolean {
  return tracer !== undefined;
}

/** The context of a sampled remote parent named by a traceparent value; undefined otherwise. */
function remoteParent(traceparent: string | null | undefined): Context | undefined {
  if (!traceparent) return undefined;
  const spanContext = parseTraceParent(traceparent);
  if (!spanContext || (spanContext.traceFlags & TraceFlags.SAMPLED) === 0) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, spanContext);
}

/** The active context when it holds a sampled span. */
function sampledActive(): Context | undefined {
  const active = context.active();
  const spanContext = trace.getSpanContext(active);
  return spanContext && (spanContext.traceFlags & TraceFlags.SAMPLED) !== 0 ? active : undefined;
}

/**
 * A span that begins the work of a request from outside (an HTTP request): it continues the caller's trace when a
 * traceparent says so, else starts one, as the sampler decides. Undefined when tracing is off.
 */
export function startEntrySpan(
  name: string,
  attributes: Attributes,
  traceparent?: string | null,
): Span | undefined {
  if (!tracer) return undefined;
  return tracer.startSpan(
    name,
    { kind: SpanKind.SERVER, attributes },
    remoteParent(traceparent) ?? ROOT_CONTEXT,
  );
}

/** Runs `fn` with `span` active (as is without a span). */
export function runInSpan<T>(span: Span | undefined, fn: () => T): T {
  if (!span) return fn();
  return context.with(trace.setSpan(context.active(), span), fn);
}

export interface ChildSpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /**
   * The parent: a traceparent value (from a message header or a stored record); when the property is absent, the
   * active span. Only a sampled parent has children; work no sampled trace leads to creates no spans at all.
   */
  traceparent?: string | null;
}

/**
 * Runs `fn` in a span that is a child of the parent (ChildSpanOptions.traceparent), ending it when `fn` settles (a
 * rejection is recorded as the span's error). Without tracing, or without a sampled parent, `fn` runs as is and
 * receives no span.
 */
export function inChildSpan<T>(
  name: string,
  options: ChildSpanOptions,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!tracer) return fn(undefined);
  const parent = 'traceparent' in options ? remoteParent(options.traceparent) : sampledActive();
  if (!parent) return fn(undefined);
  const span = tracer.startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    parent,
  );
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Sets the span's status to error with the error's message. */
export function markFailed(span: Span | undefined, error: unknown): void {
  if (!span) return;
  const message = error instanceof Error ? error.message : String(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** The traceparent of the active span when it is sampled (to send on or store); undefined otherwise or when off. */
export function activeTraceparent(): string | undefined {
  if (!tracer) return undefined;
  const spanContext = trace.getSpanContext(context.active());
  if (!spanContext || (spanContext.traceFlags & TraceFlags.SAMPLED) === 0) return undefined;
  return `00-${spanContext.traceId}-${spanContext.spanId}-01`;
}

/** Anything with a header setter: nats.js MsgHdrs, a plain map's adapter. */
export interface HeaderSetter {
  set(name: string, value: string): void;
}

/** Adds the active span's traceparent to outgoing headers (nothing when off or unsampled); whether it did. */
export function setTraceparentHeader(headers: HeaderSetter): boolean {
  const traceparent = activeTraceparent();
  if (traceparent === undefined) return false;
  headers.set(TRACEPARENT_HEADER, traceparent);
  return true;
}

/**
 * Every service's start: tracing from the process's OTEL_* variables (readTracingConfig), `serviceName` being the
 * default OTEL_SERVICE_NAME. A bad value throws ConfigError, which stops the service like any configuration problem.
 */
export function startServiceTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return startTracing(readTracingConfig(env, serviceName));
}
