/**
 * What the gateway's integration tests share, built on @cpc/testing: the gateway booted in-process, stand-ins on the
 * real NATS server for the two things it asks other services (tenant slug, charge point credentials), the kit's
 * event recorder and OCPP test client. Not part of the service.
 */
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import {
  AssetsSubjects,
  type AuthenticateChargePointRequest,
  AuthSubjects,
  type AuthorizationMode,
  ErrorCode,
  type OcppProtocol,
  type ResolveTenantRequest,
} from '@cpc/contracts';
import {
  answerAsNestService,
  EventRecorder,
  FakeServiceError,
  NO_ANSWER,
  type NatsTestServer,
  type OcppTestClient,
  ocppTestClient,
  startNatsTestServer,
} from '@cpc/testing';
import { loadOcppGatewayConfig } from '../ocpp-gateway.config.js';
import { type RunningOcppGateway, startOcppGateway } from '../start-ocpp-gateway.js';

export interface FakeController {
  controllerUuid: string;
  tenantUuid: string;
  tenantSlug: string;
  identity: string;
  password: string | undefined;
  securityProfile: number;
  /** Raise it (with a matching ControllerCredentialsChangedEvent) to test credential changes. */
  credentialsVersion: number;
  locationUuid: string;
}

/**
 * Answers `auth.tenant.resolve.v1` and `assets.charge-point.authenticate.v1` the way auth-service and assets-service
 * do (Nest's NATS envelope, typed errors), from tables the test fills in.
 */
export class FakeTenantsAndControllers {
  private readonly tenants = new Map<string, string>();
  /** Slugs (lower case) of tenants that allow security profile 0. */
  readonly tenantsAllowingProfile0 = new Set<string>();
  /**
   * Authorization mode by slug (lower case); unset: accept_unknown, so that tests of other messages get their id tags
   * accepted without an assets-service to load tokens from.
   */
  readonly authorizationModes = new Map<string, AuthorizationMode>();
  private readonly controllers = new Map<string, FakeController>();
  private readonly subscriptions: Subscription[] = [];
  tenantLookups = 0;
  /** When false, no answers at all (the services are down). */
  answering = true;
  /** Every authenticate request received, in order. */
  readonly authenticateRequests: AuthenticateChargePointRequest[] = [];
  /** Identities (lower case) answered rate_limited, as assets-service does once their failures are used up. */
  readonly rateLimitedIdentities = new Set<string>();
  /** How long each authenticate answer takes, standing in for assets-service's scrypt work. */
  authenticateDelayMs = 0;
  /**
   * Set: each charge point authentication is looked up at once (as assets-service reads the row) but answered only
   * once this promise resolves, to hold a handshake in flight while a test changes credentials.
   */
  authenticationsHeldUntil: Promise<void> | undefined;
  /** Called with each authentication request as it arrives. */
  onAuthentication: (request: AuthenticateChargePointRequest) => void = () => undefined;

  private constructor(private readonly nats: NatsConnection) {}

  static async start(natsUrl: string): Promise<FakeTenantsAndControllers> {
    const fake = new FakeTenantsAndControllers(await connect({ servers: natsUrl }));
    fake.answer<ResolveTenantRequest>(AuthSubjects.resolveTenant, ({ slug }) => {
      fake.tenantLookups += 1;
      const uuid = fake.tenants.get(slug.toLowerCase());
      return uuid
        ? {
            uuid,
            slug,
            allowsSecurityProfile0: fake.tenantsAllowingProfile0.has(slug.toLowerCase()),
            authorizationMode: fake.authorizationModes.get(slug.toLowerCase()) ?? 'accept_unknown',
          }
        : { error: { code: ErrorCode.NotFound, message: 'tenant not found' } };
    });
    fake.answer<AuthenticateChargePointRequest>(AssetsSubjects.authenticateChargePoint, (request) => {
      fake.onAuthentication(request);
      fake.authenticateRequests.push(request);
      const answer = fake.decideAuthentication(request);
      return fake.authenticateDelayMs > 0
        ? new Promise<object>((resolve) => setTimeout(() => resolve(answer), fake.authenticateDelayMs))
        : answer;
    });
    await fake.nats.flush();
    return fake;
  }

  /** What assets-service would answer, from the tables the test filled in. */
  private decideAuthentication(request: AuthenticateChargePointRequest): object | Promise<object> {
    if (this.rateLimitedIdentities.has(request.ocppIdentity.toLowerCase())) {
      return { error: { code: ErrorCode.RateLimited, message: 'too many failed handshakes' } };
    }
    const controller = this.controllers.get(`${request.tenantUuid}/${request.ocppIdentity.toLowerCase()}`);
    const passwordNeeded =
      controller && (controller.securityProfile === 1 || controller.securityProfile === 2);
    if (!controller || (passwordNeeded && request.password !== controller.password)) {
      return { error: { code: ErrorCode.InvalidCredentials, message: 'invalid charge point credentials' } };
    }
    const answer = {
      controllerUuid: controller.controllerUuid,
      ocppIdentity: controller.identity,
      securityProfile: controller.securityProfile,
      credentialsVersion: controller.credentialsVersion,
      locationUuid: controller.locationUuid,
    };
    return this.authenticationsHeldUntil ? this.authenticationsHeldUntil.then(() => answer) : answer;
  }

  addTenant(slug: string): string {
    const uuid = randomUUID();
    this.tenants.set(slug.toLowerCase(), uuid);
    return uuid;
  }

  addController(options: {
    tenantSlug: string;
    identity: string;
    password?: string;
    securityProfile?: number;
    locationUuid?: string;
  }): FakeController {
    const tenantUuid =
      this.tenants.get(options.tenantSlug.toLowerCase()) ?? this.addTenant(options.tenantSlug);
    const controller: FakeController = {
      controllerUuid: randomUUID(),
      tenantUuid,
      tenantSlug: options.tenantSlug,
      identity: options.identity,
      password: options.password,
      securityProfile: options.securityProfile ?? 1,
      credentialsVersion: 1,
      locationUuid: options.locationUuid ?? randomUUID(),
    };
    this.controllers.set(`${tenantUuid}/${options.identity.toLowerCase()}`, controller);
    return controller;
  }

  removeController(controller: FakeController): void {
    this.controllers.delete(`${controller.tenantUuid}/${controller.identity.toLowerCase()}`);
  }

  async stop(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    await this.nats.close();
  }

  private answer<T>(subject: string, handle: (request: T) => object | Promise<object>): void {
    this.subscriptions.push(
      answerAsNestService<T>(this.nats, subject, async (request) => {
        if (!this.answering) return NO_ANSWER;
        const result = (await handle(request)) as { error?: { code: ErrorCode; message: string } };
        return result.error ? new FakeServiceError(result.error.code, result.error.message) : result;
      }),
    );
  }
}

/** Boots the gateway in-process on free ports with short deadlines suited to tests; `env` overrides. */
export function startGatewayForTest(
  natsUrl: string,
  env: Record<string, string> = {},
): Promise<RunningOcppGateway> {
  return startOcppGateway(
    loadOcppGatewayConfig({
      NATS_URL: natsUrl,
      OCPP_PORT: '0',
      HEALTH_PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      NODE_ENV: 'test',
      OCPP_HEARTBEAT_INTERVAL_SECONDS: '120',
      OCPP_CALL_TIMEOUT_MS: '2000',
      OCPP_PING_DEADLINE_MS: '60000',
      NATS_REQUEST_TIMEOUT_MS: '1000',
      ...env,
    }),
  );
}

export interface GatewayTestRig {
  nats: NatsTestServer;
  services: FakeTenantsAndControllers;
  gateway: RunningOcppGateway;
  /** Records events from the rig's start on. */
  events: EventRecorder;
  /** Stops everything it started (a gateway a test closed itself is fine). */
  stop(): Promise<void>;
}

/** A private NATS server, the stand-in services, one gateway (with `env`) and an event recorder. */
export async function startGatewayTestRig(env: Record<string, string> = {}): Promise<GatewayTestRig> {
  const nats = await startNatsTestServer();
  const services = await FakeTenantsAndControllers.start(nats.url);
  const gateway = await startGatewayForTest(nats.url, env);
  const events = await EventRecorder.start(nats.url);
  return {
    nats,
    services,
    gateway,
    events,
    stop: async () => {
      await events.stop();
      await gateway.app.close();
      await services.stop();
      await nats.stop();
    },
  };
}

export type ChargePoint = OcppTestClient;

export interface ChargePointOptions {
  port: number;
  controller: Pick<FakeController, 'tenantSlug' | 'identity' | 'password'>;
  protocols: OcppProtocol[] | string[];
  /** Default: the controller's password. */
  password?: string | null;
  scheme?: 'ws' | 'wss';
  wsOpts?: Record<string, unknown>;
  /** Default true; false lets a test charge point send replies that break the schema. */
  strict?: boolean;
  /** Extra headers of the upgrade request (what an ingress adds). */
  headers?: Record<string, string>;
  /** Local address to connect from (127.0.0.2, 127.0.0.3, ... where the address matters). */
  localAddress?: string;
}

/** The kit's OCPP test client on this gateway's port, as `controller`. */
export function chargePoint(options: ChargePointOptions): ChargePoint {
  return ocppTestClient({
    ocppUrl: `${options.scheme ?? 'ws'}://127.0.0.1:${options.port}`,
    tenantSlug: options.controller.tenantSlug,
    identity: options.controller.identity,
    password: options.password === undefined ? options.controller.password : options.password,
    protocols: options.protocols,
    strict: options.strict,
    headers: options.headers,
    localAddress: options.localAddress,
    wsOpts: options.wsOpts,
  });
}

/** Resolves with the close code the charge point's socket gets. */
export function closeOf(client: ChargePoint): Promise<number> {
  return new Promise((resolve) => client.once('close', ({ code }: { code: number }) => resolve(code)));
}
