import type { FastifyReply } from 'fastify';
import { ApiError } from '../http/errors';
import { RateLimiter, type LimitRule } from './rate-limit';

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

export type AccountLimits = { [K in keyof typeof LIMIT_RULES]: RateLimiter };

/** One set of limiters per app instance (tests get fresh ones with each server). */
export function createAccountLimits(now: () => Date): AccountLimits {
  return Object.fromEntries(Object.entries(LIMIT_RULES).map(([name, rule]) => [name, new RateLimiter(rule, now)])) as AccountLimits;
}

/** Throws a 429 (with Retry-After) when any of the limiter/key pairs is exhausted. */
export function enforce(reply: FastifyReply, ...checks: [RateLimiter, string][]): void {
  for (const [limiter, key] of checks) {
    const verdict = limiter.check(key);
    if (verdict.allowed) continue;
    const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
    reply.header('retry-after', String(seconds));
    const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
    throw new ApiError(429, `Too many attempts. Please try again in ${wait}.`, 'rate_limited', { retry_after: seconds });
  }
}
