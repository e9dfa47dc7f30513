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
import { ServiceClient } from '@cpc/nats';
import { CommandResultError } from '@cpc/ocpp-commands';
import { inChildSpan, type Span, tracingOn } from '@cpc/tracing';
import { COMMAND_SERVICE_CONFIG } from '../../command-service-config.token.js';
import type { CommandServiceConfig } from '../../command-service.config.js';
import { endingOf } from '../outcomes/call-outcome.js';
import { CommandTransitions } from '../outcomes/command-transitions.js';
import type { ClaimedCommand } from '../command-row.js';
import { DeliveryQueue } from './delivery-queue.js';
import { type CreationLeases, type DispatchListener, DispatchSignal } from './dispatch-signal.js';
import { GatewayCallClient } from './gateway-call.client.js';

type NotSentReason = Extract<OcppCallReply, { outcome: 'not_sent' }>['reason'];

/**
 * Delivers due commands to their charge points (see DeliveryQueue for the rules that make it safe with any number
 * of instances and across SIGKILL). One attempt of a claimed command: a target deleted meanwhile fails it; otherwise
 * the gateway is asked to deliver it, and its final reply ends the command. "No responders" means offline: a sent
 * command then lost its connection; a pending one waits for the charge point within its validity, or fails
 * `charge_point_offline`. `not_sent` replies are tried again. Outcomes also arrive as the gateway's durable
 * call-completed events (GatewayCallEventsConsumer) when this instance died waiting.
 */
@Injectable()
export class CommandDispatcher
  implements OnApplicationBootstrap, BeforeApplicationShutdown, DispatchListener
{
  private readonly logger = new Logger(CommandDispatcher.name);
  /** Names this process's claims: the host, then this process's own id. */
  private readonly owner = `${hostname()}/${randomUUID()}`;
  private readonly inFlight = new Set<string>();
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
    await this.queue.releaseAll(this.owner, [...this.inFlight]).catch((error: unknown) => {
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
    void this.claimAndDeliver().finally(() => {
      this.running = false;
      if (this.runAgain) {
        this.runAgain = false;
        this.wake();
      }
    });
  }

  private async claimAndDeliver(): Promise<void> {
    try {
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

  notified(): void {
    this.notifications += 1;
    this.wake();
  }

  leasesForCreation(): CreationLeases | undefined {
    const room = this.config.tuning.maxDeliveriesInFlight - this.inFlight.size;
    if (this.stopped || room <= 0) return undefined;
    return { owner: this.owner, leaseMs: this.config.commandLeaseMs, limit: room };
  }

  /** Once stopping, a command created leased to this instance is left to lapse, and taken up as any lapsed claim. */
  deliverCreated(command: ClaimedCommand): void {
    if (!this.stopped) this.deliver(command);
  }

  /**
   * Runs one attempt of a command leased to this instance, renewing its lease until the attempt ends. Then it looks
   * for due commands only if there may be some it could not take meanwhile: it was full, or a wake came while the
   * attempt ran (a command created into this lane then found it busy). A lane whose next command was there before
   * is woken by the ending itself (CommandTransitions); anything else is found by the poll.
   */
  private deliver(command: ClaimedCommand): void {
    const notificationsBefore = this.notifications;
    this.inFlight.add(command.uuid);
    void this.attempt(command).finally(() => {
      const wasFull = this.inFlight.size >= this.config.tuning.maxDeliveriesInFlight;
      this.inFlight.delete(command.uuid);
      if (wasFull || this.notifications !== notificationsBefore) this.wake();
    });
  }

  /**
   * One attempt, in a span of the trace of the request that created the command when that request was traced (its
   * stored traceparent); untraced commands create no span.
   */
  private attempt(command: ClaimedCommand): Promise<void> {
    if (!command.traceparent || !tracingOn()) return this.attemptOnce(command, undefined);
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
      (span) => this.attemptOnce(command, span),
    );
  }

  private async attemptOnce(command: ClaimedCommand, span: Span | undefined): Promise<void> {
    try {
      if (command.status === 'pending') {
        const deleted = command.target_deleted_at !== null || (await this.plugDeleted(command));
        if (deleted === undefined) return await this.retryLater(command);
        if (deleted) {
          await this.transitions.failPending([command.uuid], CommandResultError.TargetDeleted);
          return;
        }
      }
      const result = await this.gateway.call(
        command.controller_uuid,
        {
          commandUuid: command.uuid,
          type: command.type,
          parameters: command.parameters,
          target: command.target,
          createdAt: command.created_at.toISOString(),
          messageLimits: await this.messageLimits(command),
        },
        this.config.ocppCallTimeoutMs,
      );
      if (this.stopped) return;
      if (result.kind === 'offline') return await this.offline(command);
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
      await this.retryLater(command).catch(() => undefined);
    }
  }

  /** No gateway holds the charge point. */
  private async offline(command: ClaimedCommand): Promise<void> {
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

  private retryLater(command: ClaimedCommand): Promise<void> {
    return this.queue.release(this.owner, command.uuid, this.config.tuning.deliveryRetryDelayMs);
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
      await this.queue.renew(this.owner, [...this.inFlight], this.config.commandLeaseMs);
    } catch (error) {
      this.logger.warn(`claims not renewed: ${describeError(error)}`);
    }
  }
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
