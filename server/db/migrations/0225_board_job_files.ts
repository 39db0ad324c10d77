import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Files a board job made for its user to download (decision 0225): the PDF of a view or an item.
 * One row per job; removed with the job's workspace, and by the export job after 7 days.
 */
export const m0225_board_job_files: Migration = {
  name: '0225_board_job_files',
  async up(db) {
    await sql`
      create table board_job_files (
        job_id text primary key references board_jobs(id) on delete cascade,
        file_name text not null,
        content_type text not null,
        data bytea not null,
        created_at timestamptz not null default now()
      )`.execute(db);
  },
};
