import type { Json, NullableTimestamp, Timestamp, Generated } from '../types';

/** Lifetime deals, add-ons, cancellations with retention offers (migration 0255, decision 0255). */
export interface BillingExtraTables {
  ltd_codes: {
    code: string;
    plan: string;
    note: string | null;
    created_at: Timestamp;
    redeemed_at: NullableTimestamp;
    redeemed_by: number | null;
    subscription_id: number | null;
  };
  subscription_addons: {
    id: Generated<number>;
    subscription_id: number;
    addon: string;
    limits: Json<Record<string, number>>;
    amount: number;
    currency: string;
    old_addon_id: number | null;
    /** paid (charged through the payment provider) | recorded (no provider configured: stored only) */
    payment_status: string;
    payment_ref: string | null;
    created_at: Timestamp;
    removed_at: NullableTimestamp;
  };
  subscription_cancellations: {
    id: Generated<number>;
    subscription_id: number;
    user_id: number;
    reasons: Json<string[]>;
    comment: string | null;
    cancelled_at: Timestamp;
    ends_at: NullableTimestamp;
    resumed_at: NullableTimestamp;
  };
  cancellation_coupons: {
    user_id: number;
    subscription_id: number;
    offer: string;
    percent_off: Generated<number>;
    free_months: Generated<number>;
    created_at: Timestamp;
    consumed_at: NullableTimestamp;
  };
}
