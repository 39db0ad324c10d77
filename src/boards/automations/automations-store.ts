import { useLiveQuery } from 'dexie-react-hooks';
import { nanoid } from 'nanoid';
import type { AutomationRecord, AutomationRun, AutomationUsage } from '../../../schema/automations';
import { syncConnection } from '../../api/worker-session';
import type { BoardBackend } from '../store/backend';
import { useBoardBackend } from '../store/backend';

/**
 * The board's automations from the local replica (synced like every record: edits are optimistic
 * and queued offline), their writes as named mutators, and the two online reads the panel makes
 * (the run log and this month's usage are not replicated).
 */

export type Automation = AutomationRecord & { collection?: string };

export function useAutomations(boardId: string): Automation[] | undefined {
  const { db } = useBoardBackend();
  return useLiveQuery(
    async () => ((await db.records.where('[collection+board_id]').equals(['automation', boardId]).toArray()) as unknown as Automation[]).sort((a, b) => a.position - b.position || a.id.localeCompare(b.id)),
    [db, boardId],
  );
}

export type AutomationDraft = Pick<AutomationRecord, 'name' | 'enabled' | 'trigger' | 'conditions' | 'match' | 'actions'>;
const DRAFT_FIELDS = ['name', 'enabled', 'trigger', 'conditions', 'match', 'actions'] as const;

export class AutomationCommands {
  constructor(
    private readonly backend: BoardBackend,
    private readonly teamId: number,
    private readonly boardId: string,
  ) {}

  async create(draft: AutomationDraft, position: number): Promise<string> {
    const id = nanoid();
    const record = { id, row_version: 0, team_id: this.teamId, board_id: this.boardId, position, created_by: this.backend.userId, created_at: new Date().toISOString(), ...draft };
    await this.backend.apply('createRecords', { records: [{ collection: 'automation', record: record as never }] }, { teamId: this.teamId });
    return id;
  }

  async update(automation: Automation, changes: Partial<AutomationDraft>): Promise<void> {
    // Only the rule's own fields: a draft built from the stored copy carries its bookkeeping too.
    const patch = Object.fromEntries(DRAFT_FIELDS.filter((f) => f in changes).map((f) => [f, changes[f]]));
    await this.backend.apply('updateRecord', { collection: 'automation', id: automation.id, patch }, { teamId: this.teamId });
  }

  async remove(automation: Automation): Promise<void> {
    await this.backend.apply('deleteRecords', { collection: 'automation', ids: [automation.id] }, { teamId: this.teamId });
  }

  /** A Button attribute clicked on an item: a click record, whose event runs the button's automations. */
  async click(itemId: string, attributeId: string): Promise<void> {
    const now = new Date().toISOString();
    const record = { id: nanoid(), row_version: 0, team_id: this.teamId, board_id: this.boardId, item_id: itemId, attribute_id: attributeId, created_by: this.backend.userId, created_at: now };
    await this.backend.apply('createRecords', { records: [{ collection: 'button_click', record: record as never }] }, { teamId: this.teamId });
  }
}

async function getJson<T>(path: string): Promise<T> {
  const answer = await syncConnection().api.request('get', path);
  if (!answer.ok) throw new Error((answer.body as { message?: string } | null)?.message ?? `HTTP ${answer.status}`);
  return answer.body as T;
}

export function fetchRuns(teamId: number, boardId: string): Promise<{ data: AutomationRun[] }> {
  return getJson(`/api/${teamId}/automations/runs?board_id=${encodeURIComponent(boardId)}&limit=100`);
}

export function fetchUsage(teamId: number, boardId: string): Promise<AutomationUsage> {
  return getJson(`/api/${teamId}/automations/usage?board_id=${encodeURIComponent(boardId)}`);
}
