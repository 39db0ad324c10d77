import { nanoid } from 'nanoid';
import { valueIdFor } from '../../../schema/records';
import { checkValue, type AttributeLike } from '../../../schema/attributes';
import { UndoHistory, noteUndone, type HistoryStep, type MutatorArgs, type MutatorName, type SyncRecord } from '../../../sync-worker/client';
import { planMove, positionAtEnd, type PositionUpdate } from '../model/positions';
import type { BoardBackend } from './backend';
import { PRIMARY_ATTRIBUTE_NAME, primaryAttributeIdFor } from '../../../schema/board-defaults';

/**
 * The board's commands. Each user action is ONE call to the worker (`backend.apply`, decision
 * 0100): a named mutator (sync-worker/mutators/) runs there in one transaction and goes out as one
 * request, so the action lands whole or not at all. What it answers is recorded as one undo step,
 * and undo/redo are actions too (the `revert` mutator).
 * Rule failures (MutationError in the worker) throw ValueError with the message to show.
 */

export class ValueError extends Error {}

/** Edits of up to this many records are shown before the replica has them (pending.ts). */
const SHOW_AT_ONCE = 50;

type Stored = SyncRecord & { collection?: string };

const strip = (record: Stored | null | undefined): SyncRecord | null => {
  if (!record) return null;
  const { collection: _c, ...rest } = record;
  return rest as SyncRecord;
};

/** A rule the worker's mutator refused (the name survives the Comlink boundary). */
const isMutationError = (error: unknown): error is Error => error instanceof Error && error.name === 'MutationError';

export class BoardActions {
  readonly history = new UndoHistory();
  /** The position of the last item this tab added per folder, so quick adds keep their order. */
  private readonly lastAdded = new Map<string, number>();

  constructor(
    private readonly backend: BoardBackend,
    readonly teamId: number,
    readonly boardId: string,
  ) {}

  /**
   * Shows a write before the worker answers (pending.ts), so the edit is on screen in the same
   * frame; answers a function that takes it back once the action is stored (or failed).
   */
  private show(collection: string, record: SyncRecord): () => void {
    const pending = this.backend.pending;
    if (!pending) return () => undefined;
    const token = pending.put(collection, record.id, record, Number.POSITIVE_INFINITY);
    return () => pending.drop(collection, record.id, token);
  }

  /** Actions sent to the worker whose answer (and so their undo step) has not come yet. */
  private readonly inFlight = new Set<Promise<unknown>>();

  /** Runs one action in the worker and records what it changed as one undo step. */
  private async apply<N extends MutatorName>(label: string, name: N, args: MutatorArgs<N>): Promise<void> {
    const running = this.call(name, args).then((result) => this.history.record({ label, entries: result.entries }));
    this.inFlight.add(running);
    try {
      await running;
    } finally {
      this.inFlight.delete(running);
    }
  }

  /**
   * Undo and redo first wait for the actions still on their way to the worker: the edit shows at
   * once (pending.ts) but its step is recorded when the worker answers, and a Ctrl+Z pressed in
   * between found no step, or took back the edit before it (e2e boards-core, clean-clone CI).
   */
  private async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private async call<N extends MutatorName>(name: N, args: MutatorArgs<N>) {
    try {
      return await this.backend.apply(name, args, { teamId: this.teamId });
    } catch (error) {
      if (isMutationError(error)) throw new ValueError(error.message);
      throw error;
    }
  }

  // ── undo / redo ──────────────────────────────────────────────────────────────────────────
  async undo(): Promise<string | null> {
    await this.settled();
    return this.revert(this.history.takeUndo(), 'before');
  }

  async redo(): Promise<string | null> {
    await this.settled();
    return this.revert(this.history.takeRedo(), 'after');
  }

  /** The inverse of a step, as one action of its own. */
  private async revert(step: HistoryStep | null, to: 'before' | 'after'): Promise<string | null> {
    if (!step) return null;
    const result = await this.call('revert', { entries: step.entries, to });
    noteUndone(step, result.entries);
    return step.label;
  }

  // ── folders ──────────────────────────────────────────────────────────────────────────────
  async createFolder(parentId: string, name: string, siblings: { id: string; position?: number | null }[]): Promise<string> {
    const id = nanoid();
    const record = { id, team_id: this.teamId, board_id: this.boardId, parent_id: parentId, name: name.trim(), position: positionAtEnd(siblings), hidden: false, row_version: 0 };
    await this.apply('create folder', 'createRecords', { records: [{ collection: 'folder', record }] });
    return id;
  }

  async updateFolder(folder: SyncRecord, patch: Record<string, unknown>, label = 'edit folder'): Promise<void> {
    await this.apply(label, 'updateRecord', { collection: 'folder', id: folder.id, patch });
  }

  async moveFolder(folder: SyncRecord, parentId: string, siblings: { id: string; position?: number | null }[], index: number): Promise<void> {
    const updates = planMove([...siblings.filter((s) => s.id !== folder.id), { id: folder.id, position: Number.MAX_SAFE_INTEGER }], [folder.id], index);
    const position = updates.find((u) => u.id === folder.id)?.position ?? positionAtEnd(siblings);
    await this.apply('move folder', 'moveFolder', { id: folder.id, parentId, position, siblings: updates.filter((u) => u.id !== folder.id) });
  }

  async deleteFolder(id: string): Promise<void> {
    await this.apply('delete folder', 'deleteRecords', { collection: 'folder', ids: [id] });
  }

  // ── items ────────────────────────────────────────────────────────────────────────────────
  /**
   * Adds an item at the folder's end, shown at once (quick-add, issue #30 part 4). Adds made in
   * quick succession go after each other even when `siblings` does not list the previous ones yet
   * (the view's list catches up after the worker answers).
   */
  async createItem(folderId: string, name: string, siblings: { id: string; position?: number | null }[], values: Record<string, unknown> = {}): Promise<string> {
    const id = nanoid();
    const last = this.lastAdded.get(folderId);
    const position = positionAtEnd(last === undefined ? siblings : [...siblings, { id: '', position: last }]);
    this.lastAdded.set(folderId, position);
    const item = { id, team_id: this.teamId, board_id: this.boardId, folder_id: folderId, name, position, row_version: 0 };
    const unshow = [this.show('item', item), ...Object.entries(values).map(([attributeId, value]) => this.show('value', this.valueRecord(id, attributeId, value)))];
    try {
      await this.apply('create item', 'createItem', { item, values });
    } finally {
      for (const f of unshow) f();
    }
    return id;
  }

  async renameItem(item: SyncRecord, name: string): Promise<void> {
    if (item.name === name) return;
    const unshow = this.show('item', { ...(strip(item) as SyncRecord), name, row_version: item.row_version + 1 });
    try {
      await this.apply('rename item', 'updateRecord', { collection: 'item', id: item.id, patch: { name } });
    } finally {
      unshow();
    }
  }

  async duplicateItems(items: SyncRecord[], copyLabel: (name: string) => string): Promise<string[]> {
    const copies = items.map((item) => ({ sourceId: item.id, id: nanoid(), name: copyLabel(String(item.name ?? '')) }));
    await this.apply(items.length > 1 ? 'duplicate items' : 'duplicate item', 'duplicateItems', { copies });
    return copies.map((c) => c.id);
  }

  /** Moves items to a folder (at its end). */
  async moveItems(items: SyncRecord[], folderId: string, targetSiblings: { id: string; position?: number | null }[]): Promise<void> {
    await this.apply(items.length > 1 ? 'move items' : 'move item', 'moveItems', { itemIds: items.map((i) => i.id), folderId, firstPosition: positionAtEnd(targetSiblings) });
  }

  /** New positions within one list (updates from planMove). */
  async reorder(collection: string, updates: PositionUpdate[], label = 'reorder'): Promise<void> {
    if (updates.length) await this.apply(label, 'reorder', { collection, updates });
  }

  async deleteItems(ids: string[]): Promise<void> {
    await this.apply(ids.length > 1 ? 'delete items' : 'delete item', 'deleteRecords', { collection: 'item', ids });
  }

  // ── values ───────────────────────────────────────────────────────────────────────────────
  private valueRecord(itemId: string, attributeId: string, value: unknown): SyncRecord {
    return { id: valueIdFor(itemId, attributeId), team_id: this.teamId, board_id: this.boardId, item_id: itemId, attribute_id: attributeId, value: value as never, row_version: 0 };
  }

  /** Saves a value; the primary attribute renames the item. Throws ValueError when invalid. */
  async setValue(item: SyncRecord, attribute: AttributeLike & { id: string }, raw: unknown): Promise<void> {
    if (attribute.kind === 'primary') return this.renameItem(item, String(raw ?? ''));
    await this.setValues([item], attribute, raw, 'edit value');
  }

  /** The same value on many items (bulk edit), one undo step. */
  async setValues(items: SyncRecord[], attribute: AttributeLike & { id: string }, value: unknown, label = 'edit values'): Promise<void> {
    // Shown at once for a few rows (an inline edit), as the worker will store it; a bulk edit
    // waits for the replica. The worker's mutator checks again (it is the one that decides).
    const shown = checkValue(attribute, value);
    if (!shown.ok) throw new ValueError(shown.message);
    const unshow = items.length <= SHOW_AT_ONCE && attribute.kind !== 'primary' ? items.map((item) => this.show('value', this.valueRecord(item.id, attribute.id, shown.value))) : [];
    try {
      await this.apply(label, 'setValues', { itemIds: items.map((i) => i.id), attributeId: attribute.id, value });
    } finally {
      for (const f of unshow) f();
    }
  }

  /**
   * Several values of one item as one action and one undo step (a gantt bar with start and end
   * date attributes). Shown at once, like an inline edit. Throws ValueError when one is invalid.
   */
  async setItemValues(item: SyncRecord, entries: { attribute: AttributeLike & { id: string }; value: unknown }[], label = 'edit values'): Promise<void> {
    const values: Record<string, unknown> = {};
    const unshow: (() => void)[] = [];
    for (const { attribute, value } of entries) {
      const shown = checkValue(attribute, value);
      if (!shown.ok) throw new ValueError(shown.message);
      values[attribute.id] = shown.value;
    }
    for (const { attribute } of entries) unshow.push(this.show('value', this.valueRecord(item.id, attribute.id, values[attribute.id])));
    try {
      await this.apply(label, 'setItemValues', { itemId: item.id, values });
    } finally {
      for (const f of unshow) f();
    }
  }

  /** A card dropped in a column: its group value and/or its position change, as one undo step. */
  async moveCard(item: SyncRecord, group: { attribute: AttributeLike & { id: string }; value: unknown } | null, position: number | null): Promise<void> {
    const unshow: (() => void)[] = [];
    if (position !== null) unshow.push(this.show('item', { ...(strip(item) as SyncRecord), position, row_version: item.row_version + 1 }));
    if (group) unshow.push(this.show('value', this.valueRecord(item.id, group.attribute.id, group.value)));
    try {
      if (group || position !== null) {
        await this.apply('move card', 'moveCard', { itemId: item.id, group: group ? { attributeId: group.attribute.id, value: group.value } : null, position });
      }
    } finally {
      for (const f of unshow) f();
    }
  }

  // ── attributes ───────────────────────────────────────────────────────────────────────────
  async createAttribute(fields: { name: string; kind: string; settings?: Record<string, unknown> }, siblings: { id: string; position?: number | null }[]): Promise<string> {
    const id = nanoid();
    const record = { id, team_id: this.teamId, board_id: this.boardId, folder_id: this.boardId, name: fields.name.trim(), kind: fields.kind, settings: fields.settings ?? {}, hidden: false, position: positionAtEnd(siblings), row_version: 0 };
    await this.apply('create attribute', 'createRecords', { records: [{ collection: 'attribute', record }] });
    return id;
  }

  async updateAttribute(attribute: SyncRecord, patch: Record<string, unknown>, label = 'edit attribute'): Promise<void> {
    await this.apply(label, 'updateRecord', { collection: 'attribute', id: attribute.id, patch });
  }

  async deleteAttribute(id: string): Promise<void> {
    await this.apply('delete attribute', 'deleteRecords', { collection: 'attribute', ids: [id] });
  }

  // ── views ────────────────────────────────────────────────────────────────────────────────
  async createView(folderId: string, name: string, kind: string, siblings: { id: string; position?: number | null }[], settings: Record<string, unknown> = {}): Promise<string> {
    const id = nanoid();
    const record = { id, team_id: this.teamId, board_id: this.boardId, folder_id: folderId, name, kind, visibility: 'shared', position: positionAtEnd(siblings), settings, row_version: 0 };
    await this.apply('create view', 'createRecords', { records: [{ collection: 'folder_view', record }] });
    return id;
  }

  async updateView(view: SyncRecord, patch: Record<string, unknown>, label = 'change view'): Promise<void> {
    await this.apply(label, 'updateRecord', { collection: 'folder_view', id: view.id, patch });
  }

  async updateViewSettings(view: SyncRecord, patch: Record<string, unknown>): Promise<void> {
    const settings = { ...((view.settings as Record<string, unknown>) ?? {}), ...patch };
    await this.updateView(view, { settings }, 'change view');
  }
}

/** A new board: the root folder (board_id = id, parent_id null), its primary attribute and a Table view, as one action. */
export async function createBoard(backend: BoardBackend, teamId: number, name: string): Promise<string> {
  const id = nanoid();
  const base = { team_id: teamId, board_id: id, row_version: 0 };
  await backend.apply(
    'createRecords',
    {
      records: [
        { collection: 'folder', record: { ...base, id, parent_id: null, name: name.trim(), position: Date.now(), hidden: false, is_public: false } },
        // The name column, with the id the server would give it (decision 0170).
        { collection: 'attribute', record: { ...base, id: primaryAttributeIdFor(id), folder_id: id, name: PRIMARY_ATTRIBUTE_NAME, kind: 'primary', position: 0, hidden: false, settings: {} } },
        { collection: 'folder_view', record: { ...base, id: nanoid(), folder_id: id, name: 'Table', kind: 'table', visibility: 'shared', position: 1, settings: {} } },
      ],
    },
    { teamId },
  );
  return id;
}
