import type { Generated, Json, NullableTimestamp, Timestamp } from '../types';

export interface WorkspaceTables {
  /** Plans are data so limits can change without a deploy. `limits` holds e.g. workspaces, members. */
  plans: {
    id: string;
    version: number;
    level: number;
    tier: number;
    name: string;
    /** A list of {id, interval, currency, amount} since migration 0240 (server/billing/plans.ts). */
    prices: Json<unknown>;
    limits: Json<Record<string, number>>;
    is_upgradable: boolean;
    /** Migration 0240: no longer offered (subscriptions on it keep working), and the catalogue's order. */
    archived: Generated<boolean>;
    position: Generated<number>;
  };
  subscriptions: {
    id: Generated<number>;
    user_id: number;
    deal: string;
    limits: Json<Record<string, number>>;
    trial_ends_at: NullableTimestamp;
    ends_at: NullableTimestamp;
    version: number;
    created_at: Timestamp;
  };
  teams: {
    id: Generated<number>;
    name: string;
    owner_id: number;
    subscription_id: number | null;
    photo_url: string | null;
    use_custom_logo: boolean;
    whitelabel_settings: Json<Record<string, unknown>> | null;
    domain: string | null;
    /** Workspace-level permission entries (PERMISSION:tokenType:tokenValue[:owner] → allow|deny). */
    permissions: Json<Record<string, 'allow' | 'deny'>>;
    row_version: number;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  team_members: {
    team_id: number;
    user_id: number;
    role: 'owner' | 'admin' | 'full-member' | 'restricted-member';
    /** null while the invitation is pending (the member has not signed up or accepted yet). */
    verified_at: NullableTimestamp;
    invited_by: number | null;
    created_at: Timestamp;
  };
  invitations: {
    id: Generated<number>;
    team_id: number;
    user_id: number;
    email: string;
    role: string;
    board_id: string | null;
    token_hash: string;
    invited_by: number;
    accepted_at: NullableTimestamp;
    created_at: Timestamp;
  };
}
