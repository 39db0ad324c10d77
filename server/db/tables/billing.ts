import type { NullableTimestamp, Timestamp } from '../types';

/** Tables of the billing module (migration 0240_plan_catalogue; plans and subscriptions are in workspaces.ts). */
export interface BillingTables {
  /** One row per subscription that has had a trial: which plan, when, and the one extension. */
  subscription_trials: {
    subscription_id: number;
    plan: string;
    started_at: Timestamp;
    extended_at: NullableTimestamp;
  };
}
