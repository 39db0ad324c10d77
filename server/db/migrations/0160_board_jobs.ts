import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Board jobs (server/board-jobs, decision 0160): imports, exports, duplication and moves that run
 * in the background, with the progress the app shows (phase, done/total, errors), a cancel flag
 * and the result. The step jobs themselves live in the job runner's tables (decision 0110).
 */
export const m0160_board_jobs: Migration = {
  name: '0160_board_jobs',
  async up(db) {
    await sql`
      create table board_jobs (
        id text primary key,
        team_id integer not null references teams(id) on delete cascade,
        board_id text not null,
        user_id integer not null references users(id) on delete cascade,
        kind text not null,
        state text not null default 'queued' check (state in ('queued','running','cancelling','cancelled','done','failed')),
        phase text not null default 'queued',
        done integer not null default 0,
        total integer not null default 0,
        errors jsonb not null default '[]'::jsonb,
        error_count integer not null default 0,
        error text,
        input jsonb not null default '{}'::jsonb,
        payload text,
        state_data jsonb not null default '{}'::jsonb,
        result jsonb,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        finished_at timestamptz
      )`.execute(db);
    // The tray's list: one user's recent jobs, newest first.
    await sql`create index board_jobs_user on board_jobs (user_id, created_at desc)`.execute(db);
  },
};
