import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * White label (issue #18, decision 0265): per workspace its tenant key, the custom domain with the
 * DNS TXT token that proves it and when it was proven, and a custom SMTP server (the password
 * encrypted with the server's secret box, server/secret-box.ts). The visible settings (name, font,
 * colours, logo, loader, wide logo, link) stay in teams.whitelabel_settings (workspace.md §3).
 * A domain is unique among verified ones: two workspaces may claim it, only one proves it.
 */
export const m0265_whitelabel: Migration = {
  name: '0265_whitelabel',
  async up(db) {
    await sql`
      create table if not exists team_whitelabel (
        team_id integer primary key references teams(id) on delete cascade,
        tenant_key text not null unique,
        domain text,
        domain_token text not null,
        domain_verified_at timestamptz,
        domain_checked_at timestamptz,
        domain_problem text,
        smtp jsonb,
        smtp_password text,
        updated_at timestamptz not null
      )`.execute(db);
    await sql`create unique index if not exists team_whitelabel_verified_domain on team_whitelabel (domain) where domain_verified_at is not null`.execute(db);
  },
};
