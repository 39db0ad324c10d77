import type { Transaction } from 'kysely';
import { AUTOBOT_USER_ID } from '../../schema/automations';
import { collections } from '../../schema/collections';
import type { Database } from '../db/types';
import { translator } from '../i18n/catalogs';
import type { JobQueue } from '../jobs/types';
import { notifyAutomation } from '../notifications/emit';
import type { TeamRow } from '../sync/access';
import { writeAs, type ActorScope } from '../sync/actor';
import { saveRecord } from '../sync/operations';
import type { PendingEvent } from '../sync/scope';
import type { StoredRecord } from '../sync/store';
import { ownersAndAdmins } from './usage';

/**
 * An automation runs as its author (N2): the author must still be in the workspace and hold
 * MANAGE_AUTOMATIONS on the board now. Otherwise the automation is switched off and the board's
 * admins (the workspace's owner and admins who can view it) are told.
 */

export async function authorMayRun(acting: ActorScope, boardId: string): Promise<boolean> {
  if (acting.role === 'guest') return false; // left the workspace (or never was in it)
  try {
    acting.scope.require('MANAGE_AUTOMATIONS', await acting.scope.chain(boardId, boardId));
    return true;
  } catch {
    return false;
  }
}

/** The notice is stored once for every admin: written in English (the body of an Autobot notice). */
const l10n = translator('en');

/** Saves the automation switched off (as Autobot, judged as the workspace owner) and tells the admins. Returns the realtime events. */
export async function switchOff(trx: Transaction<Database>, team: TeamRow, stored: StoredRecord, now: Date, jobs: JobQueue): Promise<PendingEvent[]> {
  const system = await writeAs(trx, team.id, { userId: team.owner_id, shownAs: AUTOBOT_USER_ID }, now);
  if (!system) return [];
  const { scope } = system;
  await saveRecord(scope, collections.automation, stored.id, { ...stored.data, enabled: false, row_version: stored.row_version + 1 });
  await scope.finish();
  const name = String(stored.data.name ?? '');
  const body = l10n('The automation “{name}” was switched off: its author left the workspace or may no longer manage automations on this board.', { name });
  await notifyAutomation({ db: trx, jobs, now: () => now }, `automation-off:${stored.id}:${stored.row_version}`, { teamId: team.id, boardId: stored.board_id, body, userIds: await ownersAndAdmins(trx, team.id) });
  return scope.events;
}
