import { percentOf, periodEnd, share, type Interval, type InvoiceLine } from './proration';

/** The job that renews a bought subscription at its period's end (renewals.ts). */
export const RENEW_JOB = 'payments.renew';

export interface RetentionOffer {
  offer: string;
  percent_off: number;
  free_months: number;
}

/**
 * The lines of a renewal (decision 0250): the plan's price for the next period, less a retention
 * offer waiting for it (decision 0255: a free month — the whole month, or a twelfth of a year —
 * or 20 % off) and less the credit left from earlier changes. Minor units; the lines add up to the total.
 */
export function renewalLines(args: { planId: string; planName: string; amount: number; interval: Interval; from: Date; credit: number; offer: RetentionOffer | null }) {
  const to = periodEnd(args.from, args.interval);
  const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);
  const lines: InvoiceLine[] = [
    {
      kind: 'plan',
      description: `${args.planName} (${args.interval}) from ${day(args.from)} to ${day(to)}`,
      amount: args.amount,
      plan: args.planId,
      plan_name: args.planName,
      interval: args.interval,
      from: day(args.from)!,
      to: day(to),
    },
  ];
  let discount = 0;
  if (args.offer && args.offer.free_months > 0) discount = args.interval === 'month' ? args.amount : share(args.amount, args.offer.free_months, 12);
  else if (args.offer && args.offer.percent_off > 0) discount = percentOf(args.amount, args.offer.percent_off);
  discount = Math.min(discount, args.amount);
  if (discount > 0) {
    const percent = Math.round((discount * 100) / Math.max(1, args.amount));
    lines.push({ kind: 'coupon', description: `Coupon RETENTION (${percent} % off)`, amount: -discount, coupon: 'RETENTION', percent });
  }
  const net = args.amount - discount;
  const creditApplied = Math.min(args.credit, net);
  if (creditApplied > 0) lines.push({ kind: 'credit_applied', description: 'Credit from earlier changes', amount: -creditApplied });
  return { lines, to, subtotal: args.amount, discount, creditApplied, total: net - creditApplied, creditAfter: args.credit - creditApplied, usesOffer: discount > 0 };
}
