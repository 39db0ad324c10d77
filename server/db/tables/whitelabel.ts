import type { Json, NullableTimestamp, Timestamp } from '../types';

/** White label per workspace (migration 0265, decision 0265). */
export interface WhitelabelTables {
  team_whitelabel: {
    team_id: number;
    /** The tenant key of workspace.md §6: app-vars `tenantKey` on the workspace's domain. */
    tenant_key: string;
    /** Lower-case host name, or null. */
    domain: string | null;
    /** The value the domain's TXT record must hold (`cairn-verification=<token>`). */
    domain_token: string;
    domain_verified_at: NullableTimestamp;
    domain_checked_at: NullableTimestamp;
    /** Why the last check failed (no record, another value, lookup error), or null. */
    domain_problem: string | null;
    /** {host, port, secure, user, from}, or null: the server's own mail settings. */
    smtp: Json<{ host: string; port: number; secure: boolean; user: string | null; from: string }> | null;
    /** The SMTP password sealed by server/secret-box.ts. */
    smtp_password: string | null;
    updated_at: Timestamp;
  };
}
