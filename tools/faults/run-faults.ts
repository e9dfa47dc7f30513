/**
 * `npm run test:faults`: the platform under SIGKILLs and restarts while thousands of commands travel to live charge
 * points (docs/testing.md, "Fault tests"). Runs from dist/tools/faults/run-faults.js, so the repository root is three up.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describeError } from '@cpc/errors';
import { planCommand, type PlanTarget } from './command-plan.js';
import { CommandDriver, StatusPoller } from './command-traffic.js';
import { type FaultName, type FaultOptions, faultUsage, parseFaultOptions } from './fault-options.js';
import { FaultPlatform, type MemberName } from './fault-platform.js';
import { buildFaultReport, type FaultRecord, formatFaultReport, type ReceivedCall } from './fault-report.js';
import { PlatformApiClient } from './platform-api-client.js';
import { SimulatedChargePoint } from './simulated-charge-point.js';
import { TcpBalancer } from './tcp-balancer.js';
import { checkWebhooks, type WebhookCheck, WebhookWitness } from './webhook-witness.js';

const rootDir = fileURLToPath(new URL('../../..', import.meta.url));
const TENANT = 'faults';
const PASSWORD = 'fault-test-password-1';
const OCPP_PASSWORD = 'fault-test-charge-point-1';
const startedAt = Date.now();
/** Every n-th webhook request is left hanging (webhook-service times it out and retries it). */
const WEBHOOK_HANG_EVERY = 11;
/** How long the run waits for the last webhooks after the commands: a claim lease (60 s) and a few retries. */
const WEBHOOK_DRAIN_MS = 180_000;
const log = (line: string): void =>
  console.log(`[faults +${((Date.now() - startedAt) / 1000).toFixed(1)}s] ${line}`);

/** Which process each fault kills, and how long it stays down. */
function faultTarget(fault: FaultName, options: FaultOptions): { member: MemberName; downMs: number } {
  switch (fault) {
    case 'ocpp-gateway':
      return { member: 'ocpp-gateway-a', downMs: options.downMs };
    case 'gateway-instance-lost':
      return { member: 'ocpp-gateway-b', downMs: options.instanceLostMs };
    default:
      return { member: fault, downMs: options.downMs };
  }
}

async function createAssets(api: PlatformApiClient, count: number): Promise<PlanTarget[]> {
  /**
   * POSTs an asset. `sameAs` (list filters naming it) finds the asset a POST created when its answer was lost (a timeout
   * on a loaded machine) and the repeat met it as `already_exists`.
   */
  const create = async (
    path: string,
    body: Record<string, unknown>,
    key: string,
    sameAs?: string,
  ): Promise<{ uuid: string }> => {
    const result = await api.request('POST', `/api/v1/assets/${path}`, {
      body,
      retryUntil: Date.now() + 60_000,
    });
    if (
      sameAs &&
      result.ok &&
      result.answer.status === 422 &&
      JSON.stringify(result.answer.body).includes('already_exists')
    ) {
      const listed = await api.request('GET', `/api/v1/assets/${path}?${sameAs}`, {
        retryUntil: Date.now() + 60_000,
      });
      const found = listed.ok && (listed.answer.body as Record<string, { uuid: string }[]>)[path]?.[0];
      if (found) return found;
    }
    if (!result.ok || result.answer.status !== 201)
      throw new Error(
        `POST ${path}: ${result.ok ? `${result.answer.status} ${JSON.stringify(result.answer.body)}` : result.reason}`,
      );
    return (result.answer.body as Record<string, { uuid: string }>)[key];
  };
  const location = await create('locations', { name: 'Fault test site' }, 'location');
  const targets: PlanTarget[] = [];
  for (let index = 1; index <= count; index += 1) {
    const controller = await create(
      'controllers',
      {
        location_uuid: location.uuid,
        name: `Fault CP ${index}`,
        ocpp_identity: `FCP-${index}`,
        ocpp_password: OCPP_PASSWORD,
      },
      'controller',
      `filter[ocpp_identity]=FCP-${index}`,
    );
    const plug = await create(
      'plugs',
      {
        controller_uuid: controller.uuid,
        connector_id: 1,
        standard: 'iec_62196_t2',
        power_type: 'ac_3_phase',
        max_power_kw: 22,
      },
      'plug',
      `filter[controller_uuid]=${controller.uuid}&filter[connector_id]=1`,
    );
    targets.push({ controllerUuid: controller.uuid, plugUuid: plug.uuid });
  }
  return targets;
}

/** A webhook receiver subscribed to every command status change of the tenant. */
async function subscribeWitness(api: PlatformApiClient): Promise<WebhookWitness> {
  const witness = await WebhookWitness.start(WEBHOOK_HANG_EVERY);
  const result = await api.request('POST', '/api/v1/webhooks', {
    body: { url: witness.url, event_types: ['command.status_changed'] },
    retryUntil: Date.now() + 60_000,
  });
  if (!result.ok || result.answer.status !== 201)
    throw new Error(
      `POST /webhooks: ${result.ok ? `${result.answer.status} ${JSON.stringify(result.answer.body)}` : result.reason}`,
    );
  witness.useSecret((result.answer.body as { secret: string }).secret);
  return witness;
}

/** Waits until every command's status changes reached the receiver (or WEBHOOK_DRAIN_MS passed); the last check. */
async function drainWebhooks(
  witness: WebhookWitness,
  lastStatus: ReadonlyMap<string, string | undefined>,
): Promise<WebhookCheck> {
  const deadline = Date.now() + WEBHOOK_DRAIN_MS;
  let check = checkWebhooks(witness.received, lastStatus);
  while (check.lost > 0 && Date.now() < deadline) {
    log(`webhooks: ${check.delivered} of ${check.expected}+ status changes delivered, waiting`);
    await sleep(5000);
    check = checkWebhooks(witness.received, lastStatus);
  }
  return check;
}

async function main(): Promise<number> {
  if (process.argv.includes('--help')) {
    console.log(faultUsage());
    return 0;
  }
  const options = parseFaultOptions(process.argv.slice(2), process.env);
  log(
    `${options.commands}+ commands at ${options.rate}/s to ${options.chargePoints} charge points; faults: ${options.faults.join(', ')}`,
  );
  const platform = new FaultPlatform({ rootDir, callTimeoutMs: options.callTimeoutMs, log });
  const chargePoints: SimulatedChargePoint[] = [];
  let balancer: TcpBalancer | undefined;
  let witness: WebhookWitness | undefined;
  let passed = false;
  try {
    await platform.start();
    log('platform ready; creating tenant, role and user');
    await platform.admin(['tenant:create', '--slug', TENANT]);
    await platform.admin(['role:create', '--tenant', TENANT, '--name', 'operator', '--permissions', '*']);
    await platform.admin([
      'user:create',
      '--tenant',
      TENANT,
      '--email',
      'ops@faults.test',
      '--password',
      PASSWORD,
      '--role',
      'operator',
    ]);
    const api = new PlatformApiClient(platform.apiUrl, {
      username: 'ops@faults.test',
      password: PASSWORD,
      tenant: TENANT,
    });
    const targets = await createAssets(api, options.chargePoints);
    witness = await subscribeWitness(api);
    log(`webhook receiver on ${witness.url} subscribed to command.status_changed`);

    balancer = new TcpBalancer(platform.ocppPorts);
    const balancerPort = await balancer.listen();
    const received: ReceivedCall[] = [];
    targets.forEach((target, index) => {
      chargePoints.push(
        new SimulatedChargePoint({
          endpoint: `ws://127.0.0.1:${balancerPort}/ocpp/${TENANT}`,
          identity: `FCP-${index + 1}`,
          password: OCPP_PASSWORD,
          protocol: index % 2 === 0 ? 'ocpp1.6' : 'ocpp2.0.1',
          controllerUuid: target.controllerUuid,
          maxAnswerDelayMs: options.maxAnswerDelayMs,
          onCall: (call) => received.push(call),
        }),
      );
    });
    await Promise.all(chargePoints.map((chargePoint) => chargePoint.start(Date.now() + 60_000)));
    log(`${chargePoints.length} charge points connected through the balancer (port ${balancerPort})`);

    const poller = new StatusPoller(api);
    poller.start(1000);
    const driver = new CommandDriver(
      api,
      { rate: options.rate, maxInFlight: 200, retryForMs: 300_000 },
      (command) => poller.track(command.commandUuid),
    );
    const runId = startedAt.toString(36);
    const now = new Date();
    let faultsDone = false;
    const traffic = driver.run(
      (nonce) => planCommand(nonce, targets, { runId, validForSeconds: options.validForSeconds, now }),
      (posted) => posted < options.commands || !faultsDone,
    );
    const progress = setInterval(() => {
      const online = chargePoints.filter((chargePoint) => chargePoint.connected).length;
      log(
        `posted ${driver.posted}, created ${driver.created.length}, open ${poller.openCount}, ` +
          `calls received ${received.length}, charge points online ${online}/${chargePoints.length}`,
      );
    }, 5000);

    const faults: FaultRecord[] = [];
    try {
      for (const fault of options.faults) {
        await sleep(options.intervalMs);
        const { member, downMs } = faultTarget(fault, options);
        log(`fault ${fault}: SIGKILL ${member}, down for ${downMs} ms`);
        const killedAt = Date.now();
        await platform.kill(member);
        await sleep(downMs);
        const restartedAt = Date.now();
        await platform.restart(member);
        const readyAt = Date.now();
        faults.push({ name: fault, killedAt, restartedAt, readyAt });
        log(
          `fault ${fault}: ${member} ready again ${((readyAt - killedAt) / 1000).toFixed(1)} s after the kill`,
        );
      }
      await sleep(options.intervalMs);
    } finally {
      faultsDone = true;
    }
    await traffic;
    const deadline = Date.now() + options.validForSeconds * 1000 + 2 * options.callTimeoutMs + 30_000;
    log(
      `all ${driver.posted} POSTs answered; waiting for ${poller.openCount} open commands (until ${new Date(deadline).toISOString()})`,
    );
    await poller.drain(deadline);
    await poller.stop();
    clearInterval(progress);
    // One more look at everything, through the list endpoint: late changes of status and commands no 202 announced.
    await sleep(2000);
    const listed = await poller.readAll();
    const announced = new Set(driver.created.map((command) => command.commandUuid));
    const webhooks = await drainWebhooks(
      witness,
      new Map(
        driver.created.map((command) => [command.commandUuid, poller.finalState(command.commandUuid).status]),
      ),
    );

    const report = buildFaultReport({
      parameters: { ...options },
      startedAt,
      finishedAt: Date.now(),
      posted: driver.posted,
      created: driver.created,
      postsNotCreated: driver.postsNotCreated,
      finalStates: new Map(
        driver.created.map((command) => [command.commandUuid, poller.finalState(command.commandUuid)]),
      ),
      statusProblems: poller.history.problems,
      received,
      faults,
      chargePoints: targets.map((target) => target.controllerUuid),
      unannouncedCommands: listed.filter((uuid) => !announced.has(uuid)),
      unexpectedExits: platform.unexpectedExits,
      webhooks,
    });
    for (const line of formatFaultReport(report)) console.log(line);
    const reportFile = resolve(rootDir, options.reportFile);
    mkdirSync(dirname(reportFile), { recursive: true });
    writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
    log(`report written to ${reportFile}`);
    passed = report.passed;
  } finally {
    await Promise.all(chargePoints.map((chargePoint) => chargePoint.stop()));
    await balancer?.close();
    await witness?.close();
    for (const problem of await platform.stop()) log(`WARNING: ${problem} (see its log)`);
    if (passed && !options.keep) platform.removeWorkDir();
    else log(`work directory kept: ${platform.workDir} (service logs in logs/)`);
  }
  return passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[faults] ${describeError(error)}`);
    process.exit(2);
  },
);
