import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { CommandSubjects, type CommandView, type CreatedCommand } from '@cpc/contracts';
import { eventually } from '@cpc/testing';
import { ACCEPTED_RESET_REPLY, CommandServiceHarness } from '../testing/command-service-harness.js';

/**
 * Recovery wakes (docs/commands.md, "Recovery"): after a charge point reconnects or NATS comes back, a delivery that
 * waited on the old way to the charge point is asked again at once. Every timer that could also deliver it is far
 * beyond the test's patience: the reply timeout (2 × 60 s + 5 s), the lease, the offline recheck and the validity.
 * So only the wake-up can deliver these commands in time.
 */
const harness = new CommandServiceHarness();
const tenant: string = randomUUID();

const accepted = ACCEPTED_RESET_REPLY;

async function resetOf(controllerUuid: string): Promise<string> {
  const { command } = await harness.call<CreatedCommand>(
    CommandSubjects.create,
    {
      body: {
        type: 'soft_reset',
        target_type: 'controller',
        target_uuid: controllerUuid,
        valid_for_seconds: 3600,
      },
    },
    tenant,
  );
  return command.command_uuid;
}

/** From the database, so that reading does not depend on NATS being back. */
const statusOf = async (uuid: string) =>
  (
    await harness.sql<Pick<CommandView, 'status'>>('SELECT status FROM control.commands WHERE uuid = $1', [
      uuid,
    ])
  )[0]?.status;

beforeAll(
  () =>
    harness.start({
      OCPP_CALL_TIMEOUT_MS: '60000',
      COMMAND_LEASE_MS: '600000',
      COMMAND_OFFLINE_RECHECK_MS: '3600000',
    }),
  60_000,
);
afterAll(() => harness.stop());

describe('a charge point connecting again', () => {
  it('makes the delivery that waits for its old gateway ask again at once, on the new connection', async () => {
    const controllerUuid = harness.addController(tenant);
    let swallowed = 0;
    // The first gateway instance takes the request and dies with it: no reply, ever.
    const oldGateway = harness.serveCalls(controllerUuid, () => {
      swallowed += 1;
      return undefined;
    });
    const command = await resetOf(controllerUuid);
    await eventually(
      () => swallowed,
      (count) => count === 1,
    );
    oldGateway.unsubscribe();

    // The charge point reconnects to another instance, which serves its calls and says so.
    const asked: string[] = [];
    harness.serveCalls(controllerUuid, (request) => {
      asked.push(request.commandUuid);
      return accepted;
    });
    await harness.announceConnection(controllerUuid, 'gateway-b');

    expect(
      await eventually(
        () => statusOf(command),
        (status) => status === 'accepted',
      ),
    ).toBe('accepted');
    expect(asked).toEqual([command]);
    expect(swallowed).toBe(1);
  });
});

describe('NATS coming back', () => {
  it('makes the deliveries whose request or reply was lost with the connection ask again at once', async () => {
    const controllerUuid = harness.addController(tenant);
    const asked: string[] = [];
    // The request reaches the gateway just before NATS dies; its reply never arrives. Asked again, it answers.
    harness.serveCalls(controllerUuid, (request) => {
      asked.push(request.commandUuid);
      return asked.length === 1 ? undefined : accepted;
    });
    const command = await resetOf(controllerUuid);
    await eventually(
      () => asked.length,
      (count) => count === 1,
    );

    await harness.restartNats();

    expect(
      await eventually(
        () => statusOf(command),
        (status) => status === 'accepted',
        { timeoutMs: 20_000 },
      ),
    ).toBe('accepted');
    expect(new Set(asked)).toEqual(new Set([command]));
  }, 30_000);
});
