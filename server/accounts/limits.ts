import type { FastifyReply } from 'fastify';
import { ApiError } from '../http/errors';
import type { AppContext } from '../context';
import { DatabaseThrottle, type LimitRule, type Slot, type Throttle } from './rate-limit';

const MINUTE = 60_000;

/**
 * The throttles of the accounts endpoints (numbers chosen in docs/decisions/0011-account-security.md).
 * Failed logins count per account and address pair (tight), per account from anywhere (looser, so
 * one attacker cannot lock the owner out, yet a distributed guess is capped) and per client address.
 * Mails count per address and per IP so nobody can bomb an inbox through us.
 */
export const LIMIT_RULES = {
  loginPerAccountAndIp: { max: 5, windowMs: 15 * MINUTE },
  loginPerAccount: { max: 20, windowMs: 15 * MINUTE },
  loginPerIp: { max: 30, windowMs: 15 * MINUTE },
  resetMailPerAccount: { max: 3, windowMs: 15 * MINUTE },
  resetMailPerIp: { max: 10, windowMs: 15 * MINUTE },
  resetAttemptPerIp: { max: 10, windowMs: 15 * MINUTE },
  registerPerIp: { max: 10, windowMs: 60 * MINUTE },
  reauthPerUser: { max: 5, windowMs: 15 * MINUTE },
  twoFactorPerUser: { max: 5, windowMs: 15 * MINUTE },
  verifyMailPerUser: { max: 3, windowMs: 15 * MINUTE },
} satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof LIMIT_RULES;

/** The slots one attempt took. Kept, they count; given back, the attempt leaves no trace. */
export interface Attempt {
  giveBack(): Promise<void>;
}

/** The account throttles of one app instance, over the shared database counters. */
export interface AccountLimits {
  /**
   * Counts an attempt against every named counter BEFORE it is judged; answers 429 (with
   * Retry-After) when any is full, and then counts it nowhere.
   */
  take(reply: FastifyReply, ...checks: [LimitName, string][]): Promise<Attempt>;
  /** Forgets a counter's attempts (a successful login clears the account and address pair). */
  clear(name: LimitName, key: string): Promise<void>;
}

const counterKey = (name: LimitName, key: string) => `${name}:${key}`;

export function createAccountLimits(ctx: AppContext): AccountLimits {
  const throttle: Throttle = new DatabaseThrottle(ctx.db, () => ctx.now());
  return {
    async take(reply, ...checks) {
      const taken: Slot[] = [];
      const giveBack = () => Promise.all(taken.map((slot) => throttle.giveBack(slot))).then(() => undefined);
      for (const [name, key] of checks) {
        const slot = await throttle.take(counterKey(name, key), LIMIT_RULES[name]);
        if (!slot.allowed) {
          await giveBack();
          tooManyAttempts(reply, slot.retryAfterMs);
        }
        taken.push(slot);
      }
      return { giveBack };
    },
    clear: (name, key) => throttle.clear(counterKey(name, key)),
  };
}

/** Throws the 429 of decision 0011: "Too many attempts. Please try again in N seconds." + Retry-After. */
export function tooManyAttempts(reply: FastifyReply, retryAfterMs: number): never {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  reply.header('retry-after', String(seconds));
  const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  throw new ApiError(429, `Too many attempts. Please try again in ${wait}.`, 'rate_limited', { retry_after: seconds });
}
