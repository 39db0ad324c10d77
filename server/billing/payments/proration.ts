/**
 * Money arithmetic of purchases (decision 0250): integers in minor units only. A share of an
 * amount for part of a period is rounded half up with BigInt, so no float touches money and the
 * product of an amount and milliseconds never loses precision.
 */

import type { Interval } from '../../../schema/billing';
import type { InvoiceLine, LineKind } from '../../../schema/payments';

/** Invoice lines are shared with the app (schema/payments.ts). */
export type { Interval, InvoiceLine, LineKind };

/** `amount * part / whole`, rounded half up (0 ≤ part ≤ whole). */
export function share(amount: number, part: number, whole: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`amount must be whole minor units, not ${amount}`);
  if (whole <= 0 || part <= 0) return 0;
  if (part >= whole) return amount;
  const a = BigInt(amount);
  const p = BigInt(Math.round(part));
  const w = BigInt(Math.round(whole));
  return Number((a * p * 2n + w) / (2n * w));
}

/** `percent` % of an amount, rounded half up. */
export function percentOf(amount: number, percent: number): number {
  return share(amount, percent, 100);
}

/** The end of a period starting at `from` (calendar months in UTC; the 31st becomes the month's last day). Lifetime: null. */
export function periodEnd(from: Date, interval: Interval): Date | null {
  if (interval === 'lifetime') return null;
  const months = interval === 'month' ? 1 : 12;
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(from.getUTCDate(), lastDay), from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()));
}

export interface CurrentPayment {
  planName: string;
  amount: number;
  interval: Interval;
  periodStart: Date;
  periodEnd: Date | null;
  credit: number;
}

export interface Quote {
  lines: InvoiceLine[];
  /** The sum of the charges (positive lines). */
  subtotal: number;
  discount: number;
  creditApplied: number;
  /** What is charged now: the sum of all lines, never below zero. */
  total: number;
  periodStart: Date;
  periodEnd: Date | null;
  /** The customer's credit after paying (kept for the next invoice). */
  creditAfter: number;
}

const iso = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/**
 * What buying `target` costs now. Without a running paid period: the full price for a new period
 * from now. With one (an upgrade, a downgrade or a change of interval): the unused part of the
 * current price is credited; the same interval keeps the period and charges the new price for its
 * remaining part; another interval starts a new period now at the full new price. A coupon takes
 * its percentage off the charges; a credit left from earlier is applied; a negative result is not
 * refunded but carried to the next invoice.
 */
export function quote(args: { now: Date; target: { plan: string; planName: string; amount: number; interval: Interval }; current: CurrentPayment | null; couponPercent?: number; coupon?: string }): Quote {
  const { now, target, current } = args;
  const lines: InvoiceLine[] = [];
  const running = current && current.interval !== 'lifetime' && current.periodEnd && current.periodEnd.getTime() > now.getTime() ? current : null;
  let periodStart = now;
  let end = periodEnd(now, target.interval);
  if (running) {
    const whole = running.periodEnd!.getTime() - running.periodStart.getTime();
    const left = running.periodEnd!.getTime() - now.getTime();
    const unused = share(running.amount, left, whole);
    if (unused > 0) {
      lines.push({ kind: 'proration_credit', description: `Unused time on ${running.planName} from ${iso(now)}`, amount: -unused, plan_name: running.planName, interval: running.interval, from: iso(now)!, to: iso(running.periodEnd) });
    }
    if (running.interval === target.interval) {
      periodStart = running.periodStart;
      end = running.periodEnd;
      const part = share(target.amount, left, whole);
      lines.push({ kind: 'proration_charge', description: `Remaining time on ${target.planName} until ${iso(end)}`, amount: part, plan: target.plan, plan_name: target.planName, interval: target.interval, from: iso(now)!, to: iso(end) });
    }
  }
  if (!lines.some((l) => l.kind === 'proration_charge')) {
    lines.unshift({ kind: 'plan', description: `${target.planName} (${target.interval}) from ${iso(now)}${end ? ` to ${iso(end)}` : ', lifetime'}`, amount: target.amount, plan: target.plan, plan_name: target.planName, interval: target.interval, from: iso(now)!, to: iso(end) });
  }
  const subtotal = lines.filter((l) => l.amount > 0).reduce((s, l) => s + l.amount, 0);
  const discount = args.couponPercent ? percentOf(subtotal, args.couponPercent) : 0;
  if (discount > 0) lines.push({ kind: 'coupon', description: `Coupon ${args.coupon} (${args.couponPercent} % off)`, amount: -discount, coupon: args.coupon, percent: args.couponPercent });
  const net = lines.reduce((s, l) => s + l.amount, 0);
  const creditBefore = current?.credit ?? 0;
  let creditApplied = 0;
  let creditAfter = creditBefore;
  if (net < 0) {
    lines.push({ kind: 'credit_carried', description: 'Credit carried to your next invoice', amount: -net });
    creditAfter = creditBefore - net;
  } else if (creditBefore > 0 && net > 0) {
    creditApplied = Math.min(creditBefore, net);
    lines.push({ kind: 'credit_applied', description: 'Credit from earlier changes', amount: -creditApplied });
    creditAfter = creditBefore - creditApplied;
  }
  const total = lines.reduce((s, l) => s + l.amount, 0);
  return { lines, subtotal, discount, creditApplied, total, periodStart, periodEnd: end, creditAfter };
}
