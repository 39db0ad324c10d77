import { sql } from 'kysely';
import type { Migration } from '../migrate';

export const m0002_workspaces: Migration = {
  name: '0002_workspaces',
  async up(db) {
    await sql`
      create table plans (
        id text primary key,
        version integer not null,
        level integer not null,
        tier integer not null,
        name text not null,
        prices jsonb not null default '{}',
        limits jsonb not null default '{}',
        is_upgradable boolean not null default true
      )`.execute(db);
    await sql`
      create table subscriptions (
        id serial primary key,
        user_id integer not null references users(id) on delete cascade,
        deal text not null references plans(id),
        limits jsonb not null default '{}',
        trial_ends_at timestamptz,
        ends_at timestamptz,
        version integer not null default 8,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`
      create table teams (
        id serial primary key,
        name text not null,
        owner_id integer not null references users(id),
        subscription_id integer references subscriptions(id),
        photo_url text,
        use_custom_logo boolean not null default false,
        whitelabel_settings jsonb,
        domain text,
        permissions jsonb not null default '{}',
        row_version integer not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`.execute(db);
    await sql`
      create table team_members (
        team_id integer not null references teams(id) on delete cascade,
        user_id integer not null references users(id) on delete cascade,
        role text not null check (role in ('owner','admin','full-member','restricted-member')),
        verified_at timestamptz,
        invited_by integer references users(id),
        created_at timestamptz not null default now(),
        primary key (team_id, user_id)
      )`.execute(db);
    await sql`create index team_members_user on team_members (user_id)`.execute(db);
    await sql`
      create table invitations (
        id serial primary key,
        team_id integer not null references teams(id) on delete cascade,
        user_id integer not null references users(id) on delete cascade,
        email text not null,
        role text not null,
        board_id text,
        token_hash text not null unique,
        invited_by integer not null references users(id),
        accepted_at timestamptz,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`
      insert into plans (id, version, level, tier, name, prices, limits, is_upgradable) values
        ('free', 8, 0, 0, 'Free', '{}', '{"workspaces":1,"members":5,"storage":1,"AutomationRunsLimit":100,"WhitelabelLimit":0}', true),
        ('pro', 8, 1, 0, 'Pro', '{"month":10,"year":96}', '{"workspaces":5,"members":50,"storage":100,"AutomationRunsLimit":25000,"WhitelabelLimit":0}', true),
        ('business', 8, 2, 0, 'Business', '{"month":20,"year":192}', '{"workspaces":20,"members":500,"storage":1000,"AutomationRunsLimit":250000,"WhitelabelLimit":1}', false)
    `.execute(db);
  },
};
