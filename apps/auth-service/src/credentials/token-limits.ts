import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { runStatement } from '@cpc/database';
import { RateLimitedError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { AUTH_CONFIG } from '../auth-config.token.js';
import type { AuthServiceConfig } from '../auth-service.config.js';
import {
  giveBackTokenLimitSlot,
  rememberKnownAddress,
  sweepTokenLimitCounters,
  takeTokenLimitSlot,
} from './token-limits.repository.js';

type CounterScope = 'address' | 'account' | 'account_address';

interface TakenSlot {
  scope: CounterScope;
  subject: string;
  windowSeconds: number;
  /** The window the slot was taken in, exactly as stored, so a give-back never lands in a later window. */
  windowStartedAt: string;
  /** Whether the (account, address) pair has logged in successfully within TOKEN_KNOWN_ADDRESS_DAYS. */
  known: boolean;
}

/**
 * The failure slots one password login holds while its credentials are checked; no account slot when the address
 * is known to the account (it logged in there within TOKEN_KNOWN_ADDRESS_DAYS).
 */
export interface LoginFailureSlots {
  accountAddress: TakenSlot;
  account: TakenSlot | null;
}

const sha256 = (parts: string[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

/** Expands an IPv6 address into its eight 16-bit groups. */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  const last = tailGroups.at(-1) ?? headGroups.at(-1);
  // An embedded IPv4 tail (::ffff:1.2.3.4) takes two groups.
  if (last && isIPv4(last)) {
    const owner = tailGroups.length > 0 ? tailGroups : headGroups;
    const [a, b, c, d] = last.split('.').map(Number);
    owner.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups].map(
    (group) => group.toLowerCase().padStart(4, '0'),
  );
}

/**
 * The key a client address is counted under: an IPv4 address as it is (also when IPv4-mapped), an IPv6 address by
 * its /64, because one subscriber usually holds a whole /64 and could otherwise change address per request.
 */
export function clientAddressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(address)) return address;
  if (isIPv6(address)) return `${ipv6Groups(address.split('%')[0]).slice(0, 4).join(':')}::/64`;
  return `other:${sha256([address]).slice(0, 40)}`;
}

/**
 * The token endpoint's limits, counted in auth-service's database so that every replica (of auth-service and of the
 * api-gateway in front) shares them:
 * - every token request of a client address (both grants), per short window;
 * - failed password logins per (account, address) and, with a higher threshold, per account, per failure window.
 * A failure slot is taken before the credentials are checked, in one atomic upsert, so parallel attempts count one
 * each; a successful login gives its slots back. A refused attempt takes nothing, so an attacker who is held at one
 * address does not use up the account's budget that other addresses share. An address that logged in to the account
 * is remembered for TOKEN_KNOWN_ADDRESS_DAYS and not held back by the per-account threshold, so attackers spread over
 * many addresses cannot lock the owner out from where the owner usually logs in.
 */
@Injectable()
export class TokenLimits {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(AUTH_CONFIG) private readonly config: AuthServiceConfig,
  ) {}

  /** Counts one token request of the address; refuses with 429 beyond the per-address budget. */
  async takeRequestSlot(clientAddress: string): Promise<void> {
    const slot = await this.take(
      'address',
      clientAddressKey(clientAddress),
      this.config.tokenRateLimitWindowSeconds,
      this.config.tokenRateLimitPerAddress,
    );
    if ('refused' in slot) throw new RateLimitedError(slot.retryAfterSeconds);
  }

  /**
   * Takes the failure slots of one password login, before its credentials are checked; refuses with 429 when the
   * (account, address) pair or the account has used its failures in the window. `tenant` and `username` are already
   * normalized (normalizeLoginName), exactly as the account lookup uses them.
   */
  async takeFailureSlots(
    tenant: string,
    username: string,
    clientAddress: string,
  ): Promise<LoginFailureSlots> {
    const windowSeconds = this.config.tokenFailureWindowSeconds;
    const accountAddress = await this.take(
      'account_address',
      sha256([tenant, username, clientAddressKey(clientAddress)]),
      windowSeconds,
      this.config.tokenFailureLimitPerAccountAddress,
    );
    if ('refused' in accountAddress) throw new RateLimitedError(accountAddress.retryAfterSeconds);
    if (accountAddress.known) return { accountAddress, account: null };
    const account = await this.take(
      'account',
      sha256([tenant, username]),
      windowSeconds,
      this.config.tokenFailureLimitPerAccount,
    );
    if ('refused' in account) {
      await this.giveBack(accountAddress);
      throw new RateLimitedError(account.retryAfterSeconds);
    }
    return { accountAddress, account };
  }

  /**
   * After a successful login: the pair's failures are forgotten and the address is known to the account from now
   * on; the account gets its slot back.
   */
  async settleSuccess(slots: LoginFailureSlots): Promise<void> {
    await runStatement(this.dataSource, rememberKnownAddress, {
      scope: slots.accountAddress.scope,
      subject: slots.accountAddress.subject,
      knownDays: this.config.tokenKnownAddressDays,
    });
    if (slots.account) await this.giveBack(slots.account);
  }

  /** When the check could not run (hashing at capacity, a database error): the attempt does not count. */
  async giveBackFailureSlots(slots: LoginFailureSlots): Promise<void> {
    await this.giveBack(slots.accountAddress);
    if (slots.account) await this.giveBack(slots.account);
  }

  /** Deletes counters whose window has ended, unless they still remember a known address. */
  async sweep(): Promise<void> {
    await runStatement(this.dataSource, sweepTokenLimitCounters, {
      addressWindowSeconds: this.config.tokenRateLimitWindowSeconds,
      failureWindowSeconds: this.config.tokenFailureWindowSeconds,
    });
  }

  /** Takes a slot in the counter's current window (see takeTokenLimitSlot); refused beyond `limit`. */
  private async take(
    scope: CounterScope,
    subject: string,
    windowSeconds: number,
    limit: number,
  ): Promise<TakenSlot | { refused: true; retryAfterSeconds: number }> {
    const [row] = await runStatement(this.dataSource, takeTokenLimitSlot, { scope, subject, windowSeconds });
    if (row.hits > limit) return { refused: true, retryAfterSeconds: row.retry_after_seconds };
    return { scope, subject, windowSeconds, windowStartedAt: row.window_started_at, known: row.known };
  }

  private async giveBack(slot: TakenSlot): Promise<void> {
    const { scope, subject, windowStartedAt } = slot;
    await runStatement(this.dataSource, giveBackTokenLimitSlot, { scope, subject, windowStartedAt });
  }
}

/** Deletes finished windows now and then, so counters of past clients do not pile up (any replica may do it). */
@Injectable()
export class TokenLimitCounterSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TokenLimitCounterSweeper.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: TokenLimits,
    @Inject(AUTH_CONFIG) private readonly config: AuthServiceConfig,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs =
      Math.min(
        this.config.tokenRateLimitWindowSeconds,
        this.config.tuning.tokenLimitSweepMaxIntervalSeconds,
      ) * 1000;
    this.timer = setInterval(() => {
      this.limits.sweep().catch((error: unknown) => {
        this.logger.warn(`sweeping token limit counters failed: ${(error as Error).message}`);
      });
    }, everyMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
