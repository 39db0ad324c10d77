import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/types';
import { recordEvent } from '../events/outbox';
import { copyCapable } from '../db/copy-in';
import { ApiError } from '../http/errors';
import { tokenAbilitiesOf, writeAs } from '../sync/actor';
import type { WriteScope } from '../sync/scope';
import { writeManyCopied, writeManyLogged, type LoggedWrite, type WireRecord } from '../sync/store';
import type { BoardJobRun } from './runner';
import type { BoardJobRow } from './store';

/**
 * What the import jobs share (CSV, decision 0161; Trello and Gitlab, decision 0220): the write
 * scope of a step, the batched writes of a step, and the cleanup that removes every record whose
 * id starts with the job id.
 */

/** The job's workspace and its member's role, locked for a step's transaction. */
export async function openScope(run: BoardJobRun, trx: Transaction<Database>, mode: 'shared' | 'exclusive'): Promise<WriteScope> {
  // The member who started the job is the actor, with their rights of now and the abilities of the
  // token they started it with, if any (sync/actor.ts).
  const acting = await writeAs(trx, run.job.team_id, { userId: run.job.user_id, tokenAbilities: tokenAbilitiesOf(run.job.input) }, run.ctx.now());
  if (!acting) throw new ApiError(404, 'The workspace is gone.');
  const { scope } = acting;
  await scope.lock(mode);
  return scope;
}

/** A batch step's scope: the member must still be allowed to create and edit items in the folder. */
export async function openBatchScope(run: BoardJobRun, trx: Transaction<Database>, folderId: string): Promise<WriteScope> {
  const { job } = run;
  const scope = await openScope(run, trx, 'shared');
  const chain = await scope.chain(job.board_id, folderId);
  scope.require('CREATE_ITEM', chain, job.user_id);
  scope.require('EDIT_ITEM', chain, job.user_id);
  return scope;
}

/** The highest item position in the folder (imported items go after it). */
export async function lastItemPosition(trx: Transaction<Database>, job: BoardJobRow, folderId: string): Promise<number> {
  const last = await sql<{ p: number | null }>`
    select max((data->>'position')::float8) as p from records
    where team_id = ${job.team_id} and board_id = ${job.board_id} and collection = 'item' and data->>'folder_id' = ${folderId}`.execute(trx);
  return Number(last.rows[0]?.p ?? 0);
}

/**
 * A new record written by the job. Only items get their `item.created` event (hooks, automations
 * and the activity log see every imported item); values and comments are part of that creation.
 */
export function importedWrite(job: BoardJobRow, collection: string, record: WireRecord, createdBy: number = job.user_id): LoggedWrite {
  const event = collection === 'item' ? recordEvent({ teamId: job.team_id, collection, change: 'saved', record, previous: null, actorId: job.user_id, itemId: record.id, via: { board_job_id: job.id } }) : null;
  return { collection, record, createdBy, deletedAt: null, op: 'saved', event };
}

/**
 * Writes a step's records; a record someone else changed fails the step. On PostgreSQL (`copy`)
 * the whole step goes in one COPY and one statement (decision 0362); on PGlite 1,000 per
 * statement (a JSON parameter; the step is sized to the time it holds the database there).
 */
export async function writeImported(trx: Transaction<Database>, teamId: number, now: Date, writes: LoggedWrite[], opts: { copy?: boolean } = {}): Promise<void> {
  const per = opts.copy ? Math.max(writes.length, 1) : 1000;
  for (let i = 0; i < writes.length; i += per) {
    const part = writes.slice(i, i + per);
    const written = opts.copy ? await writeManyCopied(trx, teamId, now, part) : await writeManyLogged(trx, teamId, now, part);
    if (written !== part.length) throw new Error('Some imported records were changed by someone else while the import ran.');
  }
}

/** Sends a step's realtime events (replicas catch up through /changes if that fails). */
export async function publishEvents(run: BoardJobRun, events: { channel: string; event: string; data: unknown }[]): Promise<void> {
  if (!events.length) return;
  run.ctx.jobs.kick();
  try {
    if (run.ctx.broadcaster.publishMany) await run.ctx.broadcaster.publishMany(events);
    else for (const e of events) await run.ctx.broadcaster.publish(e.channel, e.event, e.data);
  } catch {
    // Replicas catch up through /changes.
  }
}

/** Removes every record of these collections the job wrote (ids start with the job id), with tombstones for the replicas. */
export async function removeJobRecords(run: BoardJobRun, collections: readonly string[]): Promise<void> {
  const { job } = run;
  // On the embedded database a transaction holds every request: remove in small transactions there (issue #31).
  const perTransaction = copyCapable(run.ctx.db) ? 20000 : 2000;
  for (;;) {
    const removed = await run.commit(async (trx) => {
      const scope = await openScope(run, trx, 'exclusive');
      const { rows } = await sql<{ n: string }>`
        with doomed as (
          select collection, id from records
          where team_id = ${job.team_id} and board_id = ${job.board_id} and collection in (${sql.join(collections)})
            and id like ${`${job.id}%`}
          limit ${perTransaction}
        ), gone as (
          delete from records r using doomed d where r.collection = d.collection and r.id = d.id
          returning r.collection, r.id, r.board_id
        ), logged as (
          insert into change_log (team_id, board_id, collection, record_id, op, at)
          select ${job.team_id}, board_id, collection, id, 'deleted', ${scope.now} from gone
          returning 1
        )
        select count(*) as n from logged`.execute(trx);
      return Number(rows[0]?.n ?? 0);
    });
    if (removed === 0) return;
  }
}
