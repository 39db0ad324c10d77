import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import type { AttributeLike } from '../../schema/attributes';
import type { FolderRecord } from '../../schema/records';
import { resolveViewSettings, type ResolvedSettings, type ViewAttribute } from '../../schema/views';
import { allowed, chainTo, loadTeam, type TeamRow } from '../sync/access';
import { boardRecords, findRecord, type StoredRecord } from '../sync/store';
import { memberRole } from '../workspaces/access';
import type { AppContext } from '../context';

/**
 * A form as the public route sees it: the Form view (its id is the formId), its board's
 * attributes and the settings resolved against them, and the owner it writes as. A form is
 * `unknown` when the view, its folder or its board is gone (or it is no Form view), `disabled`
 * when its owner turned it off, `unavailable` when its owner may no longer create items where it
 * writes (left the workspace, lost the permission): all three answer a clear page, never a hint
 * of what the board holds.
 */

export type FormSettings = ResolvedSettings['form'];

export interface LoadedForm {
  id: string;
  team: TeamRow;
  boardId: string;
  /** The folder new items go into (the chosen one while it lives on the board, else the view's). */
  folderId: string;
  name: string;
  ownerId: number;
  settings: FormSettings;
  attributes: Map<string, AttributeLike & { id: string; name: string }>;
}

export type FormLookup = { state: 'open'; form: LoadedForm } | { state: 'unknown' | 'disabled' | 'unavailable' };

export async function loadForm(ctx: AppContext, formId: string): Promise<FormLookup> {
  const view = await findRecord(ctx.db, 'folder_view', formId);
  if (!view || view.deleted_at || view.data.kind !== 'form') return { state: 'unknown' };
  const team = await loadTeam(ctx.db, view.team_id);
  if (!team) return { state: 'unknown' };
  const folders = await liveFolders(ctx.db, team.id, view.board_id);
  const viewFolder = String(view.data.folder_id ?? '');
  if (!folders.has(view.board_id) || !folders.has(viewFolder)) return { state: 'unknown' };

  const attributeRows = (await boardRecords(ctx.db, team.id, view.board_id, 'attribute')).sort(byPosition);
  const settings = resolveViewSettings('form', view.data.settings, attributeRows.map(asViewAttribute));
  if (!settings.enabled) return { state: 'disabled' };

  const target = settings.target_folder_id && folders.has(settings.target_folder_id) ? settings.target_folder_id : viewFolder;
  const ownerId = typeof view.data.owner_id === 'number' ? view.data.owner_id : view.created_by;
  if (ownerId === null || !(await mayCreateItems(ctx, team, folders, target, ownerId))) return { state: 'unavailable' };

  const attributes = new Map(
    attributeRows.map((r) => [r.id, { id: r.id, kind: String(r.data.kind), name: String(r.data.name ?? ''), settings: (r.data.settings as Record<string, unknown> | null) ?? {} }]),
  );
  return { state: 'open', form: { id: view.id, team, boardId: view.board_id, folderId: target, name: String(view.data.name ?? ''), ownerId, settings, attributes } };
}

function byPosition(a: StoredRecord, b: StoredRecord): number {
  return Number(a.data.position ?? 0) - Number(b.data.position ?? 0) || a.id.localeCompare(b.id);
}

function asViewAttribute(r: StoredRecord): ViewAttribute {
  return { id: r.id, kind: String(r.data.kind), deleted_at: (r.data.deleted_at as string | null | undefined) ?? null, settings: r.data.settings };
}

async function liveFolders(db: Kysely<Database>, teamId: number, boardId: string): Promise<Map<string, FolderRecord>> {
  const rows = await boardRecords(db, teamId, boardId, 'folder');
  return new Map(rows.map((r) => [r.id, r.data as unknown as FolderRecord]));
}

/** The owner's CREATE_ITEM where the form writes (the save path asks it again when it writes). */
async function mayCreateItems(ctx: AppContext, team: TeamRow, folders: Map<string, FolderRecord>, folderId: string, ownerId: number): Promise<boolean> {
  const role = await memberRole(ctx, ownerId, team.id);
  if (role === 'guest') return false;
  const chain = chainTo(team, folders, folderId);
  return chain !== null && allowed({ id: ownerId, role }, 'CREATE_ITEM', chain);
}
