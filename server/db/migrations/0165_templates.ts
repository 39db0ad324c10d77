import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Custom templates (server/templates, decision 0165): a user's saved boards and the workspaces
 * each is shared with. Built-in templates are data files, not rows.
 */
export const m0165_templates: Migration = {
  name: '0165_templates',
  async up(db) {
    await sql`
      create table templates (
        id text primary key,
        owner_id integer not null references users(id) on delete cascade,
        source_team_id integer references teams(id) on delete set null,
        name text not null,
        description text not null default '',
        cover_url text,
        tags jsonb not null default '[]',
        with_items boolean not null default false,
        -- Anyone signed in who has the link (the template's id) may open and use it.
        link_shared boolean not null default false,
        -- The snapshot (schema/templates.ts templateContent): folders, attributes, views, items.
        content jsonb not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`.execute(db);
    await sql`create index templates_owner on templates (owner_id, updated_at desc)`.execute(db);
    await sql`
      create table template_shares (
        template_id text not null references templates(id) on delete cascade,
        team_id integer not null references teams(id) on delete cascade,
        shared_by integer references users(id) on delete set null,
        created_at timestamptz not null,
        primary key (template_id, team_id)
      )`.execute(db);
    await sql`create index template_shares_team on template_shares (team_id)`.execute(db);
  },
};
