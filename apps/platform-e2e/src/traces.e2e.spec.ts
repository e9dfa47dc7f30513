import pg from 'pg';
import type { PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  OtlpReceiver,
  type PlatformUnderTest,
  type ReceivedSpan,
  startPlatformUnderTest,
  tenantWithUsers,
} from '@cpc/testing';
import { createdCommand, endedCommand, sdkTestUser } from './support/sdk-test-client.js';

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

/**
 * One command, one trace: the services export OTLP/HTTP JSON to a real receiver (the collector's stand-in), and the
 * trace of a POST /api/v1/control/commands runs through NATS, command-service (creation, then the delivery that
 * continues the traceparent stored with the command), the ocpp-gateway and the OCPP call to the charge point, and
 * back through the gateway's call-completed event.
 */
describe('traces of a command from POST to result.status', () => {
  let platform: PlatformUnderTest;
  let receiver: OtlpReceiver;
  let api: ApiTestClient;
  let data: AssetsTestData;
  /** acme's operator (assets and control), by the typed SDK. */
  let operator: PlatformClient;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    platform = await startPlatformUnderTest({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_always_on',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      // Loaded shared machines start six Node processes slowly.
      readyTimeoutMs: 300_000,
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    const token = (await tenantWithUsers(platform, api, 'acme', { operator: 'asset,control' })).operator;
    data = new AssetsTestData(api, token);
    operator = await sdkTestUser(platform.apiUrl, 'acme', 'operator');
  }, 600_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver?.stop();
  });

  it('links the HTTP span to the OCPP call span through every hop, and stores the traceparent', async () => {
    const site = await data.site(1);
    const cp = ocppChargePoint({
      ocppUrl: platform.ocppUrl,
      tenantSlug: 'acme',
      identity: site.controller.ocpp_identity,
      password: OCPP_PASSWORD,
      protocols: ['ocpp1.6'],
    });
    cp.handle('Reset', () => Promise.resolve({ status: 'Accepted' }));
    await cp.connect();
    try {
      await eventually(
        async () =>
          (
            await operator.api.GET('/api/v1/assets/controllers/{uuid}', {
              params: { path: { uuid: site.controller.uuid } },
            })
          ).data?.controller,
        (controller) => controller?.connection_status === 'online',
      );
      const created = await createdCommand(operator, {
        type: 'soft_reset',
        target_type: 'controller',
        target_uuid: site.controller.uuid,
      });
      const command = await endedCommand(operator, created.command_uuid);
      expect(command.status).toBe('accepted');
      expect(command.result).toMatchObject({ status: 'Accepted' });

      // Each service exports its spans in its own batches: wait until the whole chain up to the HTTP span is in.
      const chain = await eventually(
        () => {
          const ocppCall = receiver.spans.find(
            (span) => span.name === 'OCPP Reset' && span.attributes['cpc.ocpp.outcome'] === 'answered',
          );
          return Promise.resolve(ocppCall ? [ocppCall, ...receiver.ancestors(ocppCall)] : []);
        },
        (found) => found.some((span) => span.name === 'POST /api/v1/control/commands'),
        { timeoutMs: 30_000 },
      );
      const steps = chain.map((span) => [span.service, span.name, span.kind]);
      expect(steps).toEqual([
        ['ocpp-gateway', 'OCPP Reset', CLIENT],
        ['ocpp-gateway', 'process ocpp.call.v1', SERVER],
        ['command-service', 'send ocpp.call.v1', CLIENT],
        ['command-service', 'deliver command', 1],
        ['command-service', 'process control.command.create.v1', SERVER],
        ['api-gateway', 'send control.command.create.v1', CLIENT],
        ['api-gateway', 'POST /api/v1/control/commands', SERVER],
      ]);
      const root = chain[chain.length - 1];
      expect(root.parentSpanId).toBeUndefined();
      expect(root.attributes['http.response.status_code']).toBe(202);
      const deliver = byName(chain, 'deliver command');
      expect(deliver.attributes).toMatchObject({
        'cpc.command.uuid': command.command_uuid,
        'cpc.command.status': 'accepted',
        'cpc.command.result_status': 'Accepted',
      });

      // The command's record keeps the traceparent of the span that created it.
      const stored = await storedTraceparent(command.command_uuid);
      const creation = byName(chain, 'process control.command.create.v1');
      expect(stored).toBe(`00-${root.traceId}-${creation.spanId}-01`);

      // The gateway's durable call-completed event continues the trace in command-service's consumer (and in
      // assets-service's, which keeps configuration answers).
      const completed = await eventually(
        () =>
          Promise.resolve(
            receiver
              .trace(root.traceId)
              .find(
                (span) =>
                  span.service === 'command-service' &&
                  span.name === 'process events.ocpp-gateway.call-completed.v1',
              ),
          ),
        (span) => span !== undefined,
      );
      expect(completed!.kind).toBe(CONSUMER);
      expect(receiver.ancestors(completed!).map((span) => span.name)).toContain('process ocpp.call.v1');
      expect(receiver.refused).toEqual([]);
    } finally {
      await cp.close({ force: true });
    }
  }, 60_000);

  function byName(spans: ReceivedSpan[], name: string): ReceivedSpan {
    const found = spans.find((span) => span.name === name);
    if (!found) throw new Error(`no span ${name}`);
    return found;
  }

  async function storedTraceparent(commandUuid: string): Promise<string | null> {
    const client = new pg.Client({ connectionString: platform.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ traceparent: string | null }>(
        'SELECT traceparent FROM control.commands WHERE uuid = $1',
        [commandUuid],
      );
      return rows[0]?.traceparent ?? null;
    } finally {
      await client.end();
    }
  }
});
