import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  AssetsSubjects,
  type ControllerSettingLimits,
  type ControllerSettingLimitsPayload,
  ErrorCode,
  type OcppCallReply,
  type Principal,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { describeError, DomainError } from '@cpc/errors';
import { runOutsideRequest } from '@cpc/logging';
import { ServiceClient } from '@cpc/nats';
import { CommandResultError } from '@cpc/ocpp-commands';
import { inChildSpan, type Span, tracingOn } from '@cpc/tracing';
import { COMMAND_SERVICE_CONFIG } from '../../command-service-config.token.js';
import type { CommandServiceConfig } from '../../command-service.config.js';
import { endingOf } from '../outcomes/call-outcome.js';
import { CommandTransitions } from '../outcomes/command-transitions.js';
import type { ClaimedCommand } from '../command-row.js';
import { DeliveryQueue } from './delivery-queue.js';
import { type DispatchListener, DispatchSignal, type LeaseTerms } from './dispatch-signal.js';
import { GatewayCallClient } from './gateway-call.client.js';

type NotSentReason = Extract<OcppCallReply, { outcome: 'not_sent' }>['reason'];

/** An attempt this instance runs (one per charge point at a time, by the queue's rule). */
interface RunningAttempt {
  controllerUuid: string;
  /** Set while the attempt waits for the gateway's reply: aborting it asks the gateway again at once. */
  waiting?: AbortController;
  /** The charge point connected again while the attempt ran: its lane is woken once the attempt is over. */
  reconnected: boolean;
  /** Its wait for a reply was interrupted: the command is due again at once, and claimed once the attempt is over. */
  interrupted: boolean;
  /** The gateway was asked: the call may have gone out. */
  asked: boolean; /**
   * A command was stored behind it in its lane meanwhile: unless the ending hands the lane over (the lane's next
   * command then runs here), the lane is claimed once the attempt is over.
   */
  createdBehind: boolean;
}

/**
 * Delivers due commands to their charge points (see DeliveryQueue for the rules that make it safe with any number
 * of instances and across SIGKILL). One attempt of a claimed command: a target deleted meanwhile fails it; otherwise
 * the gateway is asked to deliver it, and its final reply ends the command. "No responders" means offline: a sent
 * command then lost its connection; a pending one waits for the charge point within its validity, or fails
 * `charge_point_offline`. `not_sent` replies are tried again. Outcomes also arrive as the gateway's durable
 * call-completed events (GatewayCallEventsConsumer) when this instance died waiting.
 *
 * Recovery wakes it instead of timers (docs/commands.md, "Recovery"): a charge point connecting again interrupts
 * the wait for a reply from its old connection (asked again at once) and wakes its lane after the attempt; NATS
 * coming back interrupts every wait (a request or its reply may have been lost with the old connection); a claim the
 * database did not take back when it failed is given back by the first claim run that reaches the database again.
 */
@Injectable()
export class CommandDispatcher
  implements OnApplicationBootstrap, BeforeApplicationShutdown, DispatchListener
{
  private readonly logger = new Logger(CommandDispatcher.name);
  /** Names this process's claims: the host, then this process's own id. */
  private readonly owner = `${hostname()}/${randomUUID()}`;
  /** The attempts running, by command uuid. */
  private readonly inFlight = new Map<string, RunningAttempt>();
  /** The same attempts by charge point (the latest, should a command be taken up again before its attempt ended). */
  private readonly attemptsByChargePoint = new Map<string, RunningAttempt>();
  /**
   * Commands whose attempt ended without its claim being given back or the command ended (the database failed):
   * given back, due at once, by the next claim run, instead of lapsing with their lease. The value: whether the
   * gateway had been asked (the claim is given back unconfirmed, see DeliveryQueue.awaitConnection).
   */
  private readonly stranded = new Map<string, boolean>();
  /** When this instance's NATS connection last came back (performance.now()). */
  private natsBackAt = Number.NEGATIVE_INFINITY;
  private pollTimer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private running = false;
  private runAgain = false;
  private lastClaimStartedAt = Number.NEGATIVE_INFINITY;
  private spacingTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Counts the wakes from outside (DispatchSignal), so a delivery knows whether one came while it ran. */
  private notifications = 0;

  constructor(
    @Inject(COMMAND_SERVICE_CONFIG) private readonly config: CommandServiceConfig,
    private readonly queue: DeliveryQueue,
    private readonly transitions: CommandTransitions,
    private readonly gateway: GatewayCallClient,
    private readonly services: ServiceClient,
    signal: DispatchSignal,
  ) {
    signal.listen(this);
  }

  async onApplicationBootstrap(): Promise<void> {
    // An earlier process on this host that was killed holds claims nobody renews; take them up now instead of
    // waiting for them to lapse. Were it still alive after all, its calls are only asked for again, and the gateway
    // answers a repeated command with the first outcome.
    await this.queue.releaseHost(`${hostname()}/`, this.owner).catch((error: unknown) => {
      this.logger.warn(
        `claims of earlier processes not taken up, they lapse instead: ${describeError(error)}`,
      );
    });
    this.pollTimer = setInterval(() => this.wake(), this.config.commandDispatchIntervalMs);
    this.renewTimer = setInterval(() => void this.renewLeases(), Math.floor(this.config.commandLeaseMs / 3));
    this.pollTimer.unref();
    this.renewTimer.unref();
    this.wake();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.spacingTimer);
    clearInterval(this.pollTimer);
    clearInterval(this.renewTimer);
    // Whoever runs next takes these up at once; the gateway answers a repeat with the first outcome.
    await this.queue.releaseAll(this.owner, [...this.inFlight.keys()]).catch((error: unknown) => {
      this.logger.warn(`claims not given back, they lapse instead: ${describeError(error)}`);
    });
  }

  /**
   * Looks for due commands now, or tuning.minClaimSpacingMs after the previous run began (coalesced: a wake during a run
   * makes one more run).
   */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.runAgain = true;
      return;
    }
    if (this.spacingTimer) return;
    const wait = this.lastClaimStartedAt + this.config.tuning.minClaimSpacingMs - performance.now();
    if (wait > 0) {
      this.spacingTimer = setTimeout(() => {
        this.spacingTimer = undefined;
        this.wake();
      }, wait);
      return;
    }
    this.running = true;
    this.lastClaimStartedAt = performance.now();
    // Woken by a request (a creation), the round serves every lane: not that request's work, nor bound by its deadline.
    void runOutsideRequest(() => this.claimAndDeliver()).finally(() => {
      this.running = false;
      if (this.runAgain) {
        this.runAgain = false;
        this.wake();
      }
    });
  }

  private async claimAndDeliver(): Promise<void> {
    try {
      await this.releaseStranded();
      for (;;) {
        const room = Math.min(
          this.config.tuning.claimBatchSize,
          this.config.tuning.maxDeliveriesInFlight - this.inFlight.size,
        );
        if (room <= 0 || this.stopped) return;
        const claimed = await this.queue.claimDue(this.owner, this.config.commandLeaseMs, room);
        for (const command of claimed) this.deliver(command);
        if (claimed.length < room) return;
      }
    } catch (error) {
      this.logger.warn(`claiming due commands failed, next poll retries: ${describeError(error)}`);
    }
  }

  /**
   * Gives back the claims that failed to be given back (stranded), except any taken up again meanwhile: the first
   * statement after the database failed, so they are due as soon as it answers again.
   */
  private async releaseStranded(): Promise<void> {
    for (const [uuid, asked] of [...this.stranded]) {
      if (!this.inFlight.has(uuid)) await this.queue.release(this.owner, uuid, 0, asked);
      this.stranded.delete(uuid);
    }
  }

  notified(): void {
    this.notifications += 1;
    this.wake();
  }

  /**
   * A command stored behind a lane this instance is delivering waits for that attempt: its ending hands the lane
   * over, or the attempt's end claims (deliver). Behind any other lane it may be due already: claimed now.
   */
  createdBehind(controllerUuid: string): void {
    const attempt = this.attemptsByChargePoint.get(controllerUuid);
    if (attempt) attempt.createdBehind = true;
    else this.notified();
  }

  /**
   * A charge point opened a connection (ocpp-gateway's notice; its call subject is served there now). A delivery to
   * it that waits for a reply stops waiting and asks again: the old connection (or its gateway instance) may be gone,
   * its reply with it. Asking again is safe: the gateway answers a repeat with the first outcome (or joins the
   * delivery still running), and a call out on a replaced connection ends `connection_lost` there. The lane is woken
   * after the attempt, so an attempt that found the charge point offline a moment before does not leave the lane
   * waiting for its recheck (the connected event may have woken the lane before that attempt deferred it).
   */
  chargePointConnected(controllerUuid: string): void {
    const attempt = this.attemptsByChargePoint.get(controllerUuid);
    if (!attempt) return;
    attempt.reconnected = true;
    interrupt(attempt, 'the charge point connected again');
  }

  /**
   * NATS is back: a request sent before, or its reply, may have been lost with the old connection, so every delivery
   * waiting for a reply asks again now (the gateway joins the one still running). For reconnectSettleMs, "no
   * responders" is not taken as offline (see CommandServiceTuning.reconnectSettleMs).
   */
  natsReconnected(): void {
    this.natsBackAt = performance.now();
    for (const attempt of this.inFlight.values()) interrupt(attempt, 'NATS reconnected');
    this.wake();
  }

  /** Whether NATS came back so recently that the gateways may not serve their call subjects again yet. */
  private settlingAfterReconnect(): boolean {
    return performance.now() - this.natsBackAt < this.config.tuning.reconnectSettleMs;
  }

  leaseTerms(): LeaseTerms | undefined {
    const room = this.config.tuning.maxDeliveriesInFlight - this.inFlight.size;
    if (this.stopped || room <= 0) return undefined;
    return { owner: this.owner, leaseMs: this.config.commandLeaseMs, limit: room };
  }

  /** Once stopping, a command leased to this instance is left to lapse, and taken up as any lapsed claim. */
  deliverLeased(command: ClaimedCommand): void {
    if (!this.stopped) this.deliver(command);
  }

  /**
   * Runs one attempt of a command leased to this instance, renewing its lease until the attempt ends. Then it looks
   * for due commands only if there may be some it could not take meanwhile: it was full, a wake came while the
   * attempt ran, or a command was created into this lane meanwhile and the ending did not hand the lane over (the
   * creation may have committed after the ending's statement looked). A lane whose next command was there before is
   * handed over or woken by the ending itself (CommandTransitions); anything else is found by the poll.
   */
  private deliver(command: ClaimedCommand): void {
    const notificationsBefore = this.notifications;
    const running: RunningAttempt = {
      controllerUuid: command.controller_uuid,
      reconnected: false,
      interrupted: false,
      asked: false,
      createdBehind: false,
    };
    this.inFlight.set(command.uuid, running);
    this.attemptsByChargePoint.set(command.controller_uuid, running);
    void this.attempt(command, running)
      .then(() => this.afterReconnect(running))
      .finally(() => {
        const wasFull = this.inFlight.size >= this.config.tuning.maxDeliveriesInFlight;
        if (this.inFlight.get(command.uuid) === running) this.inFlight.delete(command.uuid);
        // Still this lane's latest attempt: its ending did not hand the lane over to this instance.
        const laneLeft = this.attemptsByChargePoint.get(command.controller_uuid) === running;
        if (laneLeft) this.attemptsByChargePoint.delete(command.controller_uuid);
        if (
          wasFull ||
          running.reconnected ||
          running.interrupted ||
          (laneLeft && running.createdBehind) ||
          this.notifications !== notificationsBefore
        )
          this.wake();
      });
  }

  /**
   * The charge point connected again while the attempt ran: whatever the attempt left its lane waiting for (its
   * connection, a retry), it is due now.
   */
  private async afterReconnect(running: RunningAttempt): Promise<void> {
    if (!running.reconnected || this.stopped) return;
    await this.queue.wakeLanes([running.controllerUuid]).catch((error: unknown) => {
      this.logger.warn(
        `lane of ${running.controllerUuid} not woken, its recheck takes it up: ${describeError(error)}`,
      );
    });
  }

  /**
   * One attempt, in a span of the trace of the request that created the command when that request was traced (its
   * stored traceparent); untraced commands create no span.
   */
  private attempt(command: ClaimedCommand, running: RunningAttempt): Promise<void> {
    if (!command.traceparent || !tracingOn()) return this.attemptOnce(command, running, undefined);
    return inChildSpan(
      'deliver command',
      {
        traceparent: command.traceparent,
        attributes: {
          'cpc.command.uuid': command.uuid,
          'cpc.command.type': command.type,
          'cpc.controller.uuid': command.controller_uuid,
        },
      },
      (span) => this.attemptOnce(command, running, span),
    );
  }

  private async attemptOnce(
    command: ClaimedCommand,
    running: RunningAttempt,
    span: Span | undefined,
  ): Promise<void> {
    try {
      if (command.status === 'pending') {
        const deleted = command.target_deleted_at !== null || (await this.plugDeleted(command));
        if (deleted === undefined) return await this.retryLater(command);
        if (deleted) {
          await this.transitions.failPending([command.uuid], CommandResultError.TargetDeleted);
          return;
        }
      }
      const messageLimits = await this.messageLimits(command);
      running.waiting = new AbortController();
      running.asked = true;
      const result = await this.gateway
        .call(
          command.controller_uuid,
          {
            commandUuid: command.uuid,
            type: command.type,
            parameters: command.parameters,
            target: command.target,
            createdAt: command.created_at.toISOString(),
            messageLimits,
          },
          this.config.ocppCallTimeoutMs,
          running.waiting.signal,
        )
        .finally(() => (running.waiting = undefined));
      if (this.stopped) return;
      if (result.kind === 'offline') return await this.offline(command);
      if (result.kind === 'interrupted') {
        // Due again at once; the request may have gone out, so it counts as unconfirmed (see awaitConnection).
        return await this.queue.release(this.owner, command.uuid, 0, true);
      }
      if (result.kind === 'unanswered') {
        this.logger.warn(`no answer about command ${command.uuid}, trying again: ${result.reason}`);
        return await this.queue.release(
          this.owner,
          command.uuid,
          this.config.tuning.deliveryRetryDelayMs,
          true,
        );
      }
      if (result.reply.outcome === 'not_sent') return await this.notSent(command, result.reply.reason);
      const ending = endingOf(result.reply);
      if (!ending) {
        this.logger.error(`malformed gateway reply about command ${command.uuid}; trying again`);
        return await this.retryLater(command);
      }
      await this.transitions.finish(command.uuid, ending);
      span?.setAttributes({
        'cpc.command.status': ending.status,
        ...(typeof ending.result.status === 'string'
          ? { 'cpc.command.result_status': ending.result.status }
          : {}),
        ...(typeof ending.result.error === 'string'
          ? { 'cpc.command.result_error': ending.result.error }
          : {}),
      });
    } catch (error) {
      if (this.stopped) return;
      this.logger.warn(
        `delivery attempt of command ${command.uuid} failed, trying again: ${describeError(error)}`,
      );
      await this.retryLater(command, running.asked).catch(() => {
        // The database is away: the claim is given back by the first claim run it answers again.
        this.stranded.set(command.uuid, running.asked);
      });
    }
  }

  /** No gateway holds the charge point. */
  private async offline(command: ClaimedCommand): Promise<void> {
    if (this.settlingAfterReconnect()) {
      // Perhaps only its gateway instance has not registered its call subjects again yet since NATS came back.
      if (command.status === 'sent') return this.retryLater(command, true);
      return this.queue.awaitConnection(this.owner, command, this.config.tuning.deliveryRetryDelayMs);
    }
    if (command.status === 'sent') {
      // The call went out and the connection it went out on is gone: its answer can no longer come.
      await this.transitions.finish(command.uuid, {
        status: 'failed',
        result: { error: CommandResultError.ConnectionLost },
        wasSent: true,
      });
      return;
    }
    await this.queue.awaitConnection(this.owner, command, this.config.commandOfflineRecheckMs);
  }

  private async notSent(command: ClaimedCommand, reason: NotSentReason): Promise<void> {
    if (reason === 'charge_point_disconnected' || reason === 'gateway_shutting_down') {
      return this.offline(command);
    }
    // Busy or not recorded: the charge point is there; give it two more call timeouts beyond the validity.
    const patience = command.valid_until.getTime() + 2 * this.config.ocppCallTimeoutMs;
    if (Date.now() < patience) return this.retryLater(command);
    await this.transitions.failPending([command.uuid], CommandResultError.ChargePointOffline);
  }

  private retryLater(command: ClaimedCommand, unconfirmed = false): Promise<void> {
    return this.queue.release(this.owner, command.uuid, this.config.tuning.deliveryRetryDelayMs, unconfirmed);
  }

  /**
   * Whether a connector command's plug was deleted (assets-service publishes no event for plugs); undefined when
   * assets-service cannot say right now.
   */
  private async plugDeleted(command: ClaimedCommand): Promise<boolean | undefined> {
    if (command.target_type !== 'connector') return false;
    try {
      await this.services.request<unknown, TenantScopedRequest<{ uuid: string }>>(AssetsSubjects.getPlug, {
        principal: servicePrincipal(command),
        payload: { uuid: command.target_uuid },
      });
      return false;
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.NotFound) return true;
      return undefined;
    }
  }

  /**
   * The charge point's message limits for the configuration commands (the gateway splits a 2.0.1 SetVariables or
   * GetVariables by them); undefined for other types, or when assets-service does not answer (the gateway's
   * defaults then apply).
   */
  private async messageLimits(command: ClaimedCommand): Promise<ControllerSettingLimits | undefined> {
    if (command.type !== 'change_configuration' && command.type !== 'refresh_configuration') return undefined;
    try {
      return await this.services.request<
        ControllerSettingLimits,
        TenantScopedRequest<ControllerSettingLimitsPayload>
      >(AssetsSubjects.controllerSettingLimits, {
        principal: servicePrincipal(command),
        payload: { controllerUuid: command.controller_uuid },
      });
    } catch (error) {
      this.logger.warn(`limits of ${command.controller_uuid} not known: ${describeError(error)}`);
      return undefined;
    }
  }

  private async renewLeases(): Promise<void> {
    try {
      await this.queue.renew(this.owner, [...this.inFlight.keys()], this.config.commandLeaseMs);
    } catch (error) {
      this.logger.warn(`claims not renewed: ${describeError(error)}`);
    }
  }
}

/** Stops the attempt's wait for a reply, if it waits for one. */
function interrupt(attempt: RunningAttempt, reason: string): void {
  if (!attempt.waiting) return;
  attempt.interrupted = true;
  attempt.waiting.abort(reason);
}

/** command-service asking assets-service about the command's tenant. */
function servicePrincipal(command: ClaimedCommand): Principal {
  return {
    tenantUuid: command.tenant_uuid,
    tenantSlug: '',
    subject: 'command-service',
    subjectType: 'service',
    scopes: [],
  };
}
