import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../types';

/** The referral programme (migration 0260, decision 0260). */
export interface ReferralTables {
  referral_codes: { user_id: number; code: string; created_at: Timestamp };
  referrals: { user_id: number; referrer_id: number; code: string; created_at: Timestamp };
  referral_invitations: { referrer_id: number; email: string; sent_at: Timestamp; times: Generated<number> };
  /** `available_at`: when the invoice's refund window has passed (migration 0273; null: available). */
  referral_credits: { invoice_id: string; referrer_id: number; user_id: number | null; invoice_amount: string | number; amount: string | number; currency: string; created_at: Timestamp; available_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null> };
  /** The client address each account registered from (migration 0273, issue #26 N12). */
  signup_addresses: { user_id: number; ip: string; created_at: Timestamp };
}
