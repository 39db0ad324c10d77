import type { Generated, Json, NullableTimestamp, Timestamp } from '../types';

/** Tables of payments (migration 0250_payments, server/billing/payments, decision 0250). */
export interface PaymentTables {
  payment_customers: {
    user_id: number;
    provider: string;
    customer_id: string;
    created_at: Generated<Date>;
  };
  /** Saved payment methods as shown: never a card number nor a CVC. */
  payment_methods: {
    id: Generated<number>;
    user_id: number;
    provider: string;
    provider_method_id: string;
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
    created_at: Generated<Date>;
  };
  /** What a bought subscription pays: its price and current period (lifetime: no period end). */
  subscription_payments: {
    subscription_id: number;
    provider: string;
    price_id: string;
    price_interval: 'month' | 'year' | 'lifetime';
    currency: string;
    amount: number;
    period_start: Timestamp;
    period_end: NullableTimestamp;
    payment_method_id: number | null;
    /** Minor units owed to the customer (a prorated downgrade), taken off the next invoice. */
    credit: Generated<number>;
    updated_at: Generated<Date>;
  };
  invoices: {
    id: Generated<number>;
    /** Given when paid (numbers without gaps among paid invoices). */
    number: string | null;
    user_id: number;
    subscription_id: number | null;
    status: 'open' | 'paid' | 'failed' | 'refunded';
    provider: string;
    currency: string;
    subtotal: number;
    discount: Generated<number>;
    credit_applied: Generated<number>;
    total: number;
    lines: Json<{ description: string; amount: number }[]>;
    /** What paying it does to the subscription (plan, price, period); applied once when paid. */
    change: Json<Record<string, unknown>>;
    coupon: string | null;
    payment_method_id: number | null;
    /** The card as it was when charged: {brand, last4}. */
    card: Json<{ brand: string; last4: string }> | null;
    charge_id: string | null;
    failure_code: string | null;
    failure_message: string | null;
    created_at: Timestamp;
    paid_at: NullableTimestamp;
  };
  coupons: {
    code: string;
    percent_off: number;
    duration: Generated<'once'>;
    active: Generated<boolean>;
    created_at: Generated<Date>;
  };
  coupon_redemptions: {
    code: string;
    user_id: number;
    invoice_id: number;
    created_at: Generated<Date>;
  };
  payment_events: {
    provider: string;
    event_id: string;
    type: string;
    created: Timestamp;
    payload: Json<Record<string, unknown>>;
    received_at: Generated<Date>;
    handled_at: NullableTimestamp;
  };
}
