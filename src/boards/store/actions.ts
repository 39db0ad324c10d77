import { nanoid } from 'nanoid';
import { valueIdFor } from '../../../schema/records';
import { checkValue, type AttributeLike } from '../../../schema/attributes';
import type { SyncRecord } from '../../../sync-worker/types';
import { UndoHistory, type HistoryEntry, type HistoryRecord, type UndoWrite } from '../../../sync-worker/undo';
import { planMove, positionAtEnd, type PositionUpdate } from '../model/positions';
import type { BoardBackend } from './backend';

/**
 * The board's commands. Each writes through the backend (applied locally at once, synced by the
 * engine) and records an undo step, so Ctrl+Z takes back exactly what the user did.
 * Validation failures throw ValueError with the message to show next to the editor.
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

export class BoardActions {
  readonly history = new UndoHistory();

  constructor(
    private readonly backend: BoardBackend,
    readonly teamId: number,
    readonly boardId: string,
  ) {}

  /**
   * Shows a write before anything is read or stored (pending.ts), so the edit is on screen in the
   * same frame; `apply` then replaces it with the real save. Answers a function that takes it back
   * if it is still only shown (the command changed nothing or failed).
   */
  private show(collection: string, record: SyncRecord): () => void {
    const pending = this.backend.pending;
    if (!pending) return () => undefined;
    const token = pending.put(collection, record.id, record, Number.POSITIVE_INFINITY);
    return () => pending.drop(collection, record.id, token);
  }

  private async local(collection: string, id: string): Promise<SyncRecord | null> {
    return strip((await this.backend.db.records.get([collection, id])) as Stored | undefined);
  }

  /** Saves a set of changes as one undo step. */
  private async apply(label: string, changes: { collection: string; record: SyncRecord }[], removals: { collection: string; id: string }[] = []): Promise<void> {
    const entries: HistoryEntry[] = [];
    const transaction = changes.length + removals.length > 1 ? nanoid() : null;
    for (const { collection, record } of changes) {
      const before = await this.local(collection, record.id);
      const saved = await this.backend.save(collection, { ...record, row_version: before?.row_version ?? 0 }, { teamId: this.teamId, transaction });
      entries.push({ collection, id: record.id, before: before as HistoryRecord | null, after: (saved ?? record) as HistoryRecord });
    }
    for (const { collection, id } of removals) {
      const before = await this.local(collection, id);
      if (!before) continue;
      await this.backend.remove(collection, id, { teamId: this.teamId });
      entries.push({ collection, id, before: before as HistoryRecord, after: null });
    }
    this.history.record({ label, entries });
  }

  // ── undo / redo ──────────────────────────────────────────────────────────────────────────
  async undo(): Promise<string | null> {
    const result = await this.history.undo((c, id) => this.local(c, id) as Promise<HistoryRecord | null>);
    if (!result) return null;
    await this.runWrites(result.writes);
    return result.step.label;
  }

  async redo(): Promise<string | null> {
    const result = await this.history.redo((c, id) => this.local(c, id) as Promise<HistoryRecord | null>);
    if (!result) return null;
    await this.runWrites(result.writes);
    return result.step.label;
  }

  private async runWrites(writes: UndoWrite[]): Promise<void> {
    for (const write of writes) {
      if (write.kind === 'save') await this.backend.save(write.collection, write.record as SyncRecord, { teamId: this.teamId });
      else if (write.kind === 'delete') await this.backend.remove(write.collection, write.id, { teamId: this.teamId });
      else {
        try {
          await this.backend.restore(this.teamId, write.collection, write.id);
        } catch {
          // Never reached the server (created and removed offline): save it anew.
          await this.backend.save(write.collection, { ...(write.record as SyncRecord), row_version: 0 }, { teamId: this.teamId });
        }
      }
    }
  }

  // ── folders ──────────────────────────────────────────────────────────────────────────────
  async createFolder(parentId: string, name: string, siblings: { id: string; position?: number | null }[]): Promise<string> {
    const id = nanoid();
    const record = { id, team_id: this.teamId, board_id: this.boardId, parent_id: parentId, name: name.trim(), position: positionAtEnd(siblings), hidden: false, row_version: 0 };
    await this.apply('create folder', [{ collection: 'folder', record }]);
    return id;
  }

  async updateFolder(folder: SyncRecord, patch: Record<string, unknown>, label = 'edit folder'): Promise<void> {
    await this.apply(label, [{ collection: 'folder', record: { ...(strip(folder) as SyncRecord), ...patch } }]);
  }

  async moveFolder(folder: SyncRecord, parentId: string, siblings: { id: string; position?: number | null }[], index: number): Promise<void> {
    const updates = planMove([...siblings.filter((s) => s.id !== folder.id), { id: folder.id, position: Number.MAX_SAFE_INTEGER }], [folder.id], index);
    const mine = updates.find((u) => u.id === folder.id);
    const changes: { collection: string; record: SyncRecord }[] = [
      { collection: 'folder', record: { ...(strip(folder) as SyncRecord), parent_id: parentId, position: mine?.position ?? positionAtEnd(siblings) } },
    ];
    for (const u of updates) if (u.id !== folder.id) changes.push({ collection: 'folder', record: { ...((await this.local('folder', u.id)) as SyncRecord), position: u.position } });
    await this.apply('move folder', changes);
  }

  async deleteFolder(id: string): Promise<void> {
    await this.apply('delete folder', [], [{ collection: 'folder', id }]);
  }

  // ── items ────────────────────────────────────────────────────────────────────────────────
  async createItem(folderId: string, name: string, siblings: { id: string; position?: number | null }[], values: Record<string, unknown> = {}): Promise<string> {
    const id = nanoid();
    const changes = [{ collection: 'item', record: { id, team_id: this.teamId, board_id: this.boardId, folder_id: folderId, name, position: positionAtEnd(siblings), row_version: 0 } as SyncRecord }];
    for (const [attributeId, value] of Object.entries(values)) changes.push({ collection: 'value', record: this.valueRecord(id, attributeId, value) });
    await this.apply('create item', changes);
    return id;
  }

  async renameItem(item: SyncRecord, name: string): Promise<void> {
    if (item.name === name) return;
    const record = { ...(strip(item) as SyncRecord), name };
    const unshow = this.show('item', { ...record, row_version: item.row_version + 1 });
    try {
      await this.apply('rename item', [{ collection: 'item', record }]);
    } finally {
      unshow();
    }
  }

  async duplicateItems(items: SyncRecord[], copyLabel: (name: string) => string): Promise<string[]> {
    const ids: string[] = [];
    const changes: { collection: string; record: SyncRecord }[] = [];
    for (const item of items) {
      const id = nanoid();
      ids.push(id);
      changes.push({ collection: 'item', record: { id, team_id: this.teamId, board_id: this.boardId, folder_id: item.folder_id, name: copyLabel(String(item.name ?? '')), position: Number(item.position ?? 0) + 1e-6, row_version: 0 } });
      const values = (await this.backend.db.records.where('[collection+item_id]').equals(['value', item.id]).toArray()) as Stored[];
      for (const v of values) changes.push({ collection: 'value', record: this.valueRecord(id, String(v.attribute_id), v.value) });
    }
    await this.apply(items.length > 1 ? 'duplicate items' : 'duplicate item', changes);
    return ids;
  }

  /** Moves items to a folder (at its end) or reorders them (updates from planMove). */
  async moveItems(items: SyncRecord[], folderId: string, targetSiblings: { id: string; position?: number | null }[]): Promise<void> {
    let position = positionAtEnd(targetSiblings);
    const changes = items.map((item) => ({ collection: 'item', record: { ...(strip(item) as SyncRecord), folder_id: folderId, position: position++ } }));
    await this.apply(items.length > 1 ? 'move items' : 'move item', changes);
  }

  async reorder(collection: string, updates: PositionUpdate[], label = 'reorder'): Promise<void> {
    const changes: { collection: string; record: SyncRecord }[] = [];
    for (const u of updates) {
      const current = await this.local(collection, u.id);
      if (current) changes.push({ collection, record: { ...current, position: u.position } });
    }
    if (changes.length) await this.apply(label, changes);
  }

  async deleteItems(ids: string[]): Promise<void> {
    await this.apply(ids.length > 1 ? 'delete items' : 'delete item', [], ids.map((id) => ({ collection: 'item', id })));
  }

  // ── values ───────────────────────────────────────────────────────────────────────────────
  private valueRecord(itemId: string, attributeId: string, value: unknown): SyncRecord {
    return { id: valueIdFor(itemId, attributeId), team_id: this.teamId, board_id: this.boardId, item_id: itemId, attribute_id: attributeId, value: value as never, row_version: 0 };
  }

  /** Checks and saves a value; the primary attribute renames the item. Throws ValueError when invalid. */
  async setValue(item: SyncRecord, attribute: AttributeLike & { id: string }, raw: unknown): Promise<void> {
    const checked = checkValue(attribute, raw);
    if (!checked.ok) throw new ValueError(checked.message);
    if (attribute.kind === 'primary') return this.renameItem(item, String(checked.value ?? ''));
    await this.setValues([item], attribute, checked.value, 'edit value');
  }

  /** The same value on many items (bulk edit), one undo step. */
  async setValues(items: SyncRecord[], attribute: AttributeLike & { id: string }, value: unknown, label = 'edit values'): Promise<void> {
    const checked = checkValue(attribute, value);
    if (!checked.ok) throw new ValueError(checked.message);
    // Shown at once for a few rows (an inline edit); a bulk edit waits for the replica.
    const unshow = items.length <= SHOW_AT_ONCE ? items.map((item) => this.show('value', this.valueRecord(item.id, attribute.id, checked.value))) : [];
    try {
      const changes: { collection: string; record: SyncRecord }[] = [];
      for (const item of items) {
        const id = valueIdFor(item.id, attribute.id);
        const current = await this.local('value', id);
        if (current && JSON.stringify(current.value ?? null) === JSON.stringify(checked.value)) continue;
        changes.push({ collection: 'value', record: current ? { ...current, value: checked.value as never } : this.valueRecord(item.id, attribute.id, checked.value) });
      }
      if (changes.length) await this.apply(label, changes);
    } finally {
      for (const f of unshow) f();
    }
  }

  /** A card dropped in a column: its group value and/or its position change, as one undo step. */
  async moveCard(item: SyncRecord, group: { attribute: AttributeLike & { id: string }; value: unknown } | null, position: number | null): Promise<void> {
    const changes: { collection: string; record: SyncRecord }[] = [];
    const unshow: (() => void)[] = [];
    if (position !== null) unshow.push(this.show('item', { ...(strip(item) as SyncRecord), position, row_version: item.row_version + 1 }));
    try {
      if (group) {
        const checked = checkValue(group.attribute, group.value);
        if (!checked.ok) throw new ValueError(checked.message);
        unshow.push(this.show('value', this.valueRecord(item.id, group.attribute.id, checked.value)));
        const id = valueIdFor(item.id, group.attribute.id);
        const current = await this.local('value', id);
        changes.push({ collection: 'value', record: current ? { ...current, value: checked.value as never } : this.valueRecord(item.id, group.attribute.id, checked.value) });
      }
      if (position !== null) changes.push({ collection: 'item', record: { ...(strip(item) as SyncRecord), position } });
      if (changes.length) await this.apply('move card', changes);
    } finally {
      for (const f of unshow) f();
    }
  }

  // ── attributes ───────────────────────────────────────────────────────────────────────────
  async createAttribute(fields: { name: string; kind: string; settings?: Record<string, unknown> }, siblings: { id: string; position?: number | null }[]): Promise<string> {
    const id = nanoid();
    const record = { id, team_id: this.teamId, board_id: this.boardId, folder_id: this.boardId, name: fields.name.trim(), kind: fields.kind, settings: fields.settings ?? {}, hidden: false, position: positionAtEnd(siblings), row_version: 0 };
    await this.apply('create attribute', [{ collection: 'attribute', record }]);
    return id;
  }

  async updateAttribute(attribute: SyncRecord, patch: Record<string, unknown>, label = 'edit attribute'): Promise<void> {
    await this.apply(label, [{ collection: 'attribute', record: { ...(strip(attribute) as SyncRecord), ...patch } }]);
  }

  async deleteAttribute(id: string): Promise<void> {
    await this.apply('delete attribute', [], [{ collection: 'attribute', id }]);
  }

  // ── views ────────────────────────────────────────────────────────────────────────────────
  async createView(folderId: string, name: string, kind: string, siblings: { id: string; position?: number | null }[], settings: Record<string, unknown> = {}): Promise<string> {
    const id = nanoid();
    const record = { id, team_id: this.teamId, board_id: this.boardId, folder_id: folderId, name, kind, visibility: 'shared', position: positionAtEnd(siblings), settings, row_version: 0 };
    await this.apply('create view', [{ collection: 'folder_view', record }]);
    return id;
  }

  async updateView(view: SyncRecord, patch: Record<string, unknown>, label = 'change view'): Promise<void> {
    await this.apply(label, [{ collection: 'folder_view', record: { ...(strip(view) as SyncRecord), ...patch } }]);
  }

  async updateViewSettings(view: SyncRecord, patch: Record<string, unknown>): Promise<void> {
    const settings = { ...((view.settings as Record<string, unknown>) ?? {}), ...patch };
    await this.updateView(view, { settings }, 'change view');
  }
}

/** A new board: the root folder (board_id = id, parent_id null), its primary attribute and a Table view. */
export async function createBoard(backend: BoardBackend, teamId: number, name: string): Promise<string> {
  const id = nanoid();
  await backend.save('folder', { id, team_id: teamId, board_id: id, parent_id: null, name: name.trim(), position: Date.now(), hidden: false, is_public: false, row_version: 0 }, { teamId });
  await backend.save('attribute', { id: nanoid(), team_id: teamId, board_id: id, folder_id: id, name: 'Item', kind: 'primary', position: 0, hidden: false, settings: {}, row_version: 0 }, { teamId });
  await backend.save('folder_view', { id: nanoid(), team_id: teamId, board_id: id, folder_id: id, name: 'Table', kind: 'table', visibility: 'shared', position: 1, settings: {}, row_version: 0 }, { teamId });
  return id;
}
