import { Kvm } from '@nats-io/kv';
import { jetstream, StorageType } from '@nats-io/jetstream';
import { connect, type NatsConnection, errors as natsErrors } from '@nats-io/transport-node';
import {
  API_RATE_LIMITS_BUCKET,
  AssetsSubjects,
  AuthSubjects,
  CHARGE_POINT_PRESENCE_BUCKET,
  ChargePointEventSubjects,
  type EventEnvelope,
  NATS_USER_NAMES,
  type NatsUserName,
  OcppGatewaySubjects,
} from '@cpc/contracts';
import { JetStreamEventBus, natsClientOptions } from '@cpc/nats';
import { eventually } from './eventually.js';
import { type NatsTestServer, startNatsTestServer } from './nats-test-server.js';
import { natsPermissionViolations } from './platform-under-test.js';

const { PermissionViolationError } = natsErrors;

/** The permission error a refused request fails with (nats.js wraps it in a RequestError). */
async function refusal(attempt: Promise<unknown>): Promise<unknown> {
  try {
    await attempt;
    return undefined;
  } catch (error) {
    return error instanceof PermissionViolationError ? error : (error as Error).cause;
  }
}

function envelope(data: Record<string, unknown>): EventEnvelope<Record<string, unknown>> {
  return {
    eventId: crypto.randomUUID(),
    occurredAt: new Date().toISOString(),
    tenantUuid: crypto.randomUUID(),
    data,
  };
}

/**
 * The broker as the platform runs it: nats-server 2.9 with the generated authorization (NATS_USERS). Each service's
 * own traffic goes through with the same client code the services use; another service's subjects are refused.
 */
describe('NATS users and permissions (generated authorization on a real nats-server)', () => {
  let nats: NatsTestServer;
  const open: NatsConnection[] = [];

  const connectAs = async (user: NatsUserName): Promise<NatsConnection> => {
    const connection = await connect({
      ...natsClientOptions({
        natsUrl: nats.url,
        natsCredentials: { user, password: nats.passwords![user] },
      }),
      name: `spec-${user}`,
    });
    open.push(connection);
    return connection;
  };

  /** Subscribes and answers the permission error the server sent for it (undefined: allowed). */
  const subscriptionRefusal = async (connection: NatsConnection, subject: string): Promise<unknown> => {
    const subscription = connection.subscribe(subject);
    await connection.flush();
    // The server's -ERR for the SUB arrives before the PONG of the flush above.
    const refused = await Promise.race([subscription.closed, connection.flush().then(() => 'open')]);
    subscription.unsubscribe();
    return refused === 'open' ? undefined : refused;
  };

  beforeAll(async () => {
    nats = await startNatsTestServer({ authorization: true });
  });
  afterAll(async () => {
    await Promise.all(open.map((connection) => connection.close()));
    await nats.stop();
  });

  it('starts nats-server 2.9 with the generated configuration, and every user logs in with its password', async () => {
    for (const user of NATS_USER_NAMES) {
      const connection = await connectAs(user);
      await connection.flush();
      expect(connection.info?.auth_required).toBe(true);
    }
  });

  it("refuses a client without credentials, and one with another user's password", async () => {
    await expect(connect({ servers: nats.url, reconnect: false })).rejects.toThrow(/authorization/i);
    await expect(
      connect({
        servers: nats.url,
        user: 'auth-service',
        pass: nats.passwords!['assets-service'],
        reconnect: false,
      }),
    ).rejects.toThrow(/authorization/i);
  });

  it('lets only auth-service answer the signing-key subjects', async () => {
    for (const user of NATS_USER_NAMES.filter((name) => name !== 'auth-service')) {
      const connection = await connectAs(user);
      expect(await subscriptionRefusal(connection, AuthSubjects.listSigningKeys)).toBeInstanceOf(
        PermissionViolationError,
      );
      expect(await subscriptionRefusal(connection, 'auth.>')).toBeInstanceOf(PermissionViolationError);
    }
    const auth = await connectAs('auth-service');
    expect(await subscriptionRefusal(auth, AuthSubjects.listSigningKeys)).toBeUndefined();
  });

  it('lets only ocpp-gateway take the calls meant for charge points', async () => {
    const uuid = crypto.randomUUID();
    for (const user of ['api-gateway', 'command-service', 'assets-service', 'auth-service'] as const) {
      const connection = await connectAs(user);
      expect(await subscriptionRefusal(connection, OcppGatewaySubjects.call(uuid))).toBeInstanceOf(
        PermissionViolationError,
      );
    }
    expect(await subscriptionRefusal(await connectAs('ocpp-gateway'), OcppGatewaySubjects.call(uuid))).toBe(
      undefined,
    );
  });

  it('refuses events published by a service that does not own them', async () => {
    const apiGateway = await connectAs('api-gateway');
    expect(
      await refusal(
        jetstream(apiGateway).publish(ChargePointEventSubjects.connected, JSON.stringify(envelope({}))),
      ),
    ).toBeInstanceOf(PermissionViolationError);
    const assets = await connectAs('assets-service');
    expect(
      await refusal(assets.request(OcppGatewaySubjects.call(crypto.randomUUID()), '{}', { timeout: 2000 })),
    ).toBeInstanceOf(PermissionViolationError);
  });

  it("keeps a user off the replies of another (inboxes) and off other services' durable consumers", async () => {
    const apiGateway = await connectAs('api-gateway');
    expect(await subscriptionRefusal(apiGateway, '_INBOX.>')).toBeInstanceOf(PermissionViolationError);
    expect(await subscriptionRefusal(apiGateway, '_INBOX_auth-service.>')).toBeInstanceOf(
      PermissionViolationError,
    );
    const gateway = await connectAs('ocpp-gateway');
    expect(
      await refusal(
        gateway.request(
          '$JS.API.CONSUMER.MSG.NEXT.CPC_EVENTS.assets-service_charge-point-state',
          '{"batch":1}',
          {
            timeout: 2000,
          },
        ),
      ),
    ).toBeInstanceOf(PermissionViolationError);
  });

  it('carries a request and its reply between two services', async () => {
    const auth = await connectAs('auth-service');
    auth.subscribe(AuthSubjects.issueToken, {
      queue: 'auth-service',
      callback: (_error, message) => {
        message.respond(JSON.stringify({ answered: message.json() }));
      },
    });
    await auth.flush();
    const apiGateway = await connectAs('api-gateway');
    const reply = await apiGateway.request(AuthSubjects.issueToken, JSON.stringify({ grant: 'x' }), {
      timeout: 2000,
    });
    expect(reply.json()).toEqual({ answered: { grant: 'x' } });
  });

  it('carries events from their publisher to durable and per-instance consumers', async () => {
    const gatewayBus = new JetStreamEventBus(await connectAs('ocpp-gateway'));
    const assetsBus = new JetStreamEventBus(await connectAs('assets-service'));
    const commandBus = new JetStreamEventBus(await connectAs('command-service'));
    const consumed: string[] = [];
    await assetsBus.consume(
      { durableName: 'assets-service_charge-point-state', filterSubject: 'events.charge-point.>' },
      (subject) => {
        consumed.push(subject);
        return Promise.resolve();
      },
    );
    const followed: unknown[] = [];
    await commandBus.followOnThisInstance(AssetsSubjects.controllerDeleted, (event) =>
      followed.push(event.data),
    );

    await gatewayBus.publish(ChargePointEventSubjects.connected, envelope({ n: 1 }));
    await assetsBus.publish(AssetsSubjects.controllerDeleted, envelope({ controllerUuid: 'c-1' }));

    await eventually(
      () => consumed,
      (subjects) => subjects.length === 1,
    );
    expect(consumed).toEqual([ChargePointEventSubjects.connected]);
    await eventually(
      () => followed,
      (events) => events.length === 1,
    );
    expect(followed).toEqual([{ controllerUuid: 'c-1' }]);
    await Promise.all([gatewayBus, assetsBus, commandBus].map((bus) => bus.onApplicationShutdown()));
  });

  it("lets ocpp-gateway use its key-value buckets, and nobody else's", async () => {
    const bucket = await new Kvm(await connectAs('ocpp-gateway')).create(CHARGE_POINT_PRESENCE_BUCKET, {
      history: 1,
    });
    const revision = await bucket.create('controller-1', 'a');
    await bucket.update('controller-1', 'b', revision);
    expect((await bucket.get('controller-1'))?.string()).toBe('b');
    const keys: string[] = [];
    for await (const key of await bucket.keys()) keys.push(key);
    expect(keys).toEqual(['controller-1']);
    await bucket.delete('controller-1');

    const commandService = await connectAs('command-service');
    const foreign = await new Kvm(commandService).open(CHARGE_POINT_PRESENCE_BUCKET);
    expect(await refusal(foreign.get('controller-1'))).toBeInstanceOf(PermissionViolationError);
    expect(await refusal(foreign.put('controller-1', 'x'))).toBeInstanceOf(PermissionViolationError);
  });

  it('lets api-gateway use its rate-limit bucket, and keeps other services off it', async () => {
    const bucket = await new Kvm(await connectAs('api-gateway')).create(API_RATE_LIMITS_BUCKET, {
      history: 1,
      storage: StorageType.Memory,
      ttl: 3600 * 1000,
    });
    const revision = await bucket.create('subject-1', '{"startedAt":1,"leased":1}');
    await bucket.update('subject-1', '{"startedAt":1,"leased":2}', revision);
    expect((await bucket.get('subject-1'))?.json()).toEqual({ startedAt: 1, leased: 2 });

    const foreign = await new Kvm(await connectAs('ocpp-gateway')).open(API_RATE_LIMITS_BUCKET);
    expect(await refusal(foreign.put('subject-1', '{"startedAt":1,"leased":0}'))).toBeInstanceOf(
      PermissionViolationError,
    );
  });

  it('logged a violation for every refusal above, and none for the allowed traffic', () => {
    const log = nats.log();
    expect(log).toMatch(
      /Subscription Violation - User "assets-service", Subject "auth\.signing-keys\.list\.v1"/,
    );
    expect(log).toMatch(
      /Publish Violation - User "api-gateway", Subject "events\.charge-point\.connected\.v1"/,
    );
    // Every violation is one of the refusals asked for above: none of the allowed traffic was refused.
    const asked = [
      /Subscription Violation - User "[\w-]+", Subject "(auth\.|ocpp\.call\.v1\.|_INBOX)/,
      /Publish Violation - User "api-gateway", Subject "events\./,
      /Publish Violation - User "assets-service", Subject "ocpp\.call\.v1\./,
      /Publish Violation - User "ocpp-gateway", Subject "\$JS\.API\.CONSUMER\.MSG\.NEXT\.CPC_EVENTS\.assets-service_/,
      /Publish Violation - User "command-service", Subject "(\$KV\.ocpp_connections\.|\$JS\.API\.[\w.]+\.KV_ocpp_connections)/,
      /Publish Violation - User "ocpp-gateway", Subject "(\$KV\.api_rate_limits\.|\$JS\.API\.[\w.]+\.KV_api_rate_limits)/,
    ];
    const violations = natsPermissionViolations(log);
    expect(violations.length).toBeGreaterThan(20);
    const unasked = violations.filter((line) => !asked.some((pattern) => pattern.test(line)));
    expect(unasked).toEqual([]);
  });
});
