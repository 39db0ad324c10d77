/**
 * A sliding-window counter per key, in memory, driven by the caller's clock (ctx.now) so tests can
 * move time. One process only: behind a load balancer each API process counts on its own, which
 * multiplies the allowance by the number of processes (see docs/decisions/0011-account-security.md).
 */
export interface LimitRule {
  /** How many hits the window allows. */
  max: number;
  windowMs: number;
}

export interface LimitVerdict {
  allowed: boolean;
  /** When not allowed: milliseconds until the oldest hit leaves the window. */
  retryAfterMs: number;
}

const MAX_KEYS = 100_000;

export class RateLimiter {
  private hits = new Map<string, number[]>();

  constructor(
    private readonly rule: LimitRule,
    private readonly now: () => Date,
  ) {}

  private live(key: string, t: number): number[] {
    const list = this.hits.get(key);
    if (!list) return [];
    const kept = list.filter((at) => at > t - this.rule.windowMs);
    if (kept.length) this.hits.set(key, kept);
    else this.hits.delete(key);
    return kept;
  }

  /** Whether one more hit is allowed now, without recording one. */
  check(key: string): LimitVerdict {
    const t = this.now().getTime();
    const list = this.live(key, t);
    if (list.length < this.rule.max) return { allowed: true, retryAfterMs: 0 };
    return { allowed: false, retryAfterMs: list[0]! + this.rule.windowMs - t };
  }

  /** Records a hit (a failed login, a mail sent, ...). */
  hit(key: string): void {
    const t = this.now().getTime();
    const list = this.live(key, t);
    list.push(t);
    this.hits.set(key, list);
    if (this.hits.size > MAX_KEYS) this.sweep(t);
  }

  /** Forgets a key (a successful login clears the account's failures). */
  clear(key: string): void {
    this.hits.delete(key);
  }

  private sweep(t: number) {
    for (const key of [...this.hits.keys()]) this.live(key, t);
    // Still too many live keys (a flood from many addresses): drop the oldest entries.
    while (this.hits.size > MAX_KEYS) this.hits.delete(this.hits.keys().next().value!);
  }
}
