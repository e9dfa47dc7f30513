import { jest } from '@jest/globals';
import type {
  ControllerDeletedEvent,
  ControllersExistRequest,
  ControllersExistResponse,
  EventEnvelope,
} from '@cpc/contracts';
import type { JetStreamEventBus, ServiceClient } from '@cpc/nats';
import { COMMAND_SERVICE_TUNING, type CommandServiceConfig } from '../../command-service.config.js';
import { ControllerLookups } from './controller-lookups.js';

const { knownControllerTtlMs: KNOWN_CONTROLLER_TTL_MS, knownControllersMax: KNOWN_CONTROLLERS_MAX } =
  COMMAND_SERVICE_TUNING;

/** What assets-service is asked, and the remembering around it; assets-service and the event stream are stand-ins. */
describe('ControllerLookups', () => {
  const tenant = 'tenant-a';
  let asked: string[];
  /** Requests held until released (when `holding`); otherwise answered at once. */
  let held: (() => void)[];
  let holding: boolean;
  let onDeleted: (event: EventEnvelope<unknown>) => void;
  let onFollowEnd: () => void;
  let lookups: ControllerLookups;

  beforeEach(async () => {
    asked = [];
    held = [];
    holding = false;
    const services = {
      request: (_subject: string, { controllers }: ControllersExistRequest) => {
        asked.push(...controllers.map((controller) => controller.uuid));
        const answer: ControllersExistResponse = { exists: controllers.map(() => true) };
        if (!holding) return Promise.resolve(answer);
        return new Promise((resolve) => held.push(() => resolve(answer)));
      },
    } as unknown as ServiceClient;
    const bus = {
      followOnThisInstance: (
        _subject: string,
        handler: (event: EventEnvelope<unknown>) => void,
        onEnd: () => void,
      ) => {
        onDeleted = handler;
        onFollowEnd = onEnd;
        return Promise.resolve();
      },
    } as unknown as JetStreamEventBus;
    lookups = new ControllerLookups(services, bus, {
      tuning: COMMAND_SERVICE_TUNING,
    } as CommandServiceConfig);
    await lookups.onModuleInit();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  const deleted = (controllerUuid: string): ControllerDeletedEvent =>
    ({ tenantUuid: tenant, data: { controllerUuid } }) as ControllerDeletedEvent;

  it('asks once about a controller found, again after its deletion event', async () => {
    expect(await lookups.exists(tenant, 'a')).toBe(true);
    expect(await lookups.exists(tenant, 'a')).toBe(true);
    expect(asked).toEqual(['a']);
    onDeleted(deleted('a'));
    expect(await lookups.exists(tenant, 'a')).toBe(true);
    expect(asked).toEqual(['a', 'a']);
  });

  it('does not remember an answer that a deletion overtook', async () => {
    holding = true;
    const answer = lookups.exists(tenant, 'a');
    onDeleted(deleted('other'));
    held.splice(0).forEach((release) => release());
    expect(await answer).toBe(true);
    holding = false;
    await lookups.exists(tenant, 'a');
    expect(asked).toEqual(['a', 'a']);
  });

  it('forgets everything and remembers nothing once deletions stop arriving', async () => {
    await lookups.exists(tenant, 'a');
    onFollowEnd();
    await lookups.exists(tenant, 'a');
    await lookups.exists(tenant, 'a');
    expect(asked).toEqual(['a', 'a', 'a']);
  });

  it('forgets a controller after its time, and the oldest beyond its capacity', async () => {
    jest.useFakeTimers({ now: 0 });
    await lookups.exists(tenant, 'a');
    jest.setSystemTime(KNOWN_CONTROLLER_TTL_MS - 1);
    await lookups.exists(tenant, 'a');
    jest.setSystemTime(KNOWN_CONTROLLER_TTL_MS + 1);
    await lookups.exists(tenant, 'a');
    expect(asked).toEqual(['a', 'a']);

    const many = Array.from({ length: KNOWN_CONTROLLERS_MAX }, (_, index) => `c${index}`);
    await Promise.all(many.map((uuid) => lookups.exists(tenant, uuid)));
    asked = [];
    await lookups.exists(tenant, 'c1');
    await lookups.exists(tenant, 'a');
    expect(asked).toEqual(['a']);
  });
});
