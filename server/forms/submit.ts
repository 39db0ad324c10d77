import { randomBytes } from 'node:crypto';
import { collections } from '../../schema/collections';
import { valueIdFor } from '../../schema/records';
import type { Attachment } from '../../schema/attributes';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { saveRecord } from '../sync/operations';
import { type PendingEvent } from '../sync/scope';
import { writeAs } from '../sync/actor';
import type { LoadedForm } from './load';

/**
 * Writes one accepted answer: a new item (and its values) in the form's folder, written AS THE
 * FORM'S OWNER through the same save path as the owner's own edits (saveRecord: permissions, the
 * attribute checks again, row versions, change log, domain events in the same statement). So the
 * notifications consumer, webhooks and automations see an ordinary item.created; the events
 * carry `via: {form_id, form_name, form_owner_id}`, which is how the notifications consumer
 * knows to send "form submitted" (decision 0130). Realtime goes out after commit, so the owner's
 * open board shows the item at once.
 */

export const newRecordId = () => randomBytes(15).toString('base64url');

export interface Submission {
  /** Normalised answers by attribute id (primary = the item's name). */
  values: Map<string, unknown>;
  /** Uploaded files by attribute id, already stored. */
  files: Map<string, Attachment[]>;
}

export const formUnavailable = () => new ApiError(404, 'This form is not available.', 'form_unavailable');

export async function writeSubmission(ctx: AppContext, form: LoadedForm, submission: Submission): Promise<{ itemId: string }> {
  const now = ctx.now();
  const itemId = newRecordId();
  let events: PendingEvent[] = [];
  const primary = [...form.attributes.values()].find((a) => a.kind === 'primary');
  const name = primary && typeof submission.values.get(primary.id) === 'string' ? String(submission.values.get(primary.id)) : form.settings.title || form.name;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // The form's owner is the actor, with the owner's rights of now (sync/actor.ts).
      const acting = await writeAs(trx, form.team.id, { userId: form.ownerId }, now);
      if (!acting) throw formUnavailable();
      const { scope } = acting;
      scope.via = { form_id: form.id, form_name: form.settings.title || form.name, form_owner_id: form.ownerId };
      await saveRecord(scope, collections.item, itemId, { id: itemId, board_id: form.boardId, folder_id: form.folderId, name, position: now.getTime(), row_version: 1 });
      const write = async (attributeId: string, value: unknown) => {
        const id = valueIdFor(itemId, attributeId);
        await saveRecord(scope, collections.value, id, { id, board_id: form.boardId, item_id: itemId, attribute_id: attributeId, value, row_version: 1 });
      };
      for (const [attributeId, value] of submission.values) if (attributeId !== primary?.id) await write(attributeId, value);
      for (const [attributeId, entries] of submission.files) if (entries.length) await write(attributeId, entries);
      await scope.finish();
      await scope.flushWrites();
      events = scope.events;
    });
  } catch (error) {
    // The owner lost the right to write there between the lookup and now: the same clear page.
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) throw formUnavailable();
    throw error;
  }
  ctx.jobs.kick();
  await publish(ctx, events);
  return { itemId };
}

async function publish(ctx: AppContext, events: PendingEvent[]): Promise<void> {
  try {
    if (ctx.broadcaster.publishMany) await ctx.broadcaster.publishMany(events);
    else for (const e of events) await ctx.broadcaster.publish(e.channel, e.event, e.data);
  } catch (error) {
    // The item stands; open boards catch up through /changes.
    console.warn('form broadcast failed', error);
  }
}
