import { sql } from 'kysely';
import { HOOK_EVENT_TYPES } from '../../schema/constants';
import type { ConsumerContext, DomainEvent } from '../events/types';
import { readableEvents } from '../activity/read-filter';
import { rolesIn } from '../notifications/audience';
import { loadTeam } from '../sync/access';
import { loadTeamFolders, ReadView } from '../sync/reads';
import { findRecord } from '../sync/store';
import { addDelivery } from './deliveries';

/**
 * The webhooks consumer (decision 0140): for each event of the six hook types, one delivery per
 * active hook of the workspace that asked for that type and whose owner may read the record now
 * (the read rule of every read, server/sync/reads.ts, through the activity log's filter). The
 * delivery's body is fixed here, so every attempt sends (and signs) the same bytes.
 *
 * Deliveries are added in the consumer's transaction with their first job, so an event counts as
 * handled exactly when its deliveries exist; a re-run of the batch finds them by dedupe key.
 */

const HOOK_TYPES = new Set<string>(HOOK_EVENT_TYPES);

export async function hooksForEvent(event: DomainEvent, c: ConsumerContext): Promise<void> {
  if (!HOOK_TYPES.has(event.type) || !event.collection || !event.record_id) return;
  const hooks = await c.db
    .selectFrom('hooks')
    .select(['id', 'user_id'])
    .where('team_id', '=', event.team_id)
    .where('active', '=', true)
    .where(sql<boolean>`events @> ${JSON.stringify([event.type])}::jsonb`)
    .orderBy('id')
    .execute();
  if (hooks.length === 0) return;

  const readers = await ownersWhoMayRead(c, event, [...new Set(hooks.map((h) => h.user_id))]);
  const targets = hooks.filter((h) => readers.has(h.user_id));
  if (targets.length === 0) return;

  const stored = await findRecord(c.db, event.collection, event.record_id);
  const data = stored && stored.team_id === event.team_id ? stored.data : event.after;
  const body = {
    event: event.type,
    team_id: event.team_id,
    board_id: event.board_id,
    data,
    created_at: event.created_at,
    // What an update changed (the fields' values before and after); not on created events.
    ...(event.type.endsWith('.updated') ? { changes: { before: event.before, after: event.after } } : {}),
  };
  const lane = event.item_id ?? event.record_id;
  for (const hook of targets) {
    await addDelivery(
      c.db,
      c.jobs,
      { hookId: hook.id, teamId: event.team_id, eventId: event.id, dedupeKey: `hook:${hook.id}:${event.id}`, lane: `${hook.id}:${lane}`, body },
      c.now(),
    );
  }
}

/** The hook owners who may read the event's record now. */
async function ownersWhoMayRead(c: ConsumerContext, event: DomainEvent, userIds: number[]): Promise<Set<number>> {
  const team = await loadTeam(c.db, event.team_id);
  if (!team) return new Set();
  const folders = await loadTeamFolders(c.db, event.team_id);
  const roles = await rolesIn(c.db, team, userIds);
  const out = new Set<number>();
  for (const id of userIds) {
    const role = roles.get(id) ?? 'guest';
    // Someone who left the workspace keeps no window into it through a hook.
    if (role === 'guest') continue;
    const view = new ReadView(team, { id, role }, folders);
    if ((await readableEvents(c.db, view, event.team_id, [event])).length) out.add(id);
  }
  return out;
}
