import { publishProblem } from '../../schema/doc-publish';
import { kindSettingsOf } from '../../schema/views';
import { validation } from '../http/errors';
import type { SaveContext } from '../sync/rules';

const docsOf = (data: Record<string, unknown> | undefined | null) => (data?.kind === 'docs' ? kindSettingsOf('docs', data.settings) : null);

/**
 * Turning publishing on for a Docs view or for one of its documents (or moving a published view)
 * needs its board and every folder down to it public: "Board and parent folders must be public
 * before sharing" (decisions 0136, 0210). Pages check the same on every request, so a board made
 * private later stops them at once.
 */
export async function checkPublishing({ scope, record, existing }: SaveContext): Promise<void> {
  const now = docsOf(record);
  if (!now || (!now.published && now.published_items.length === 0)) return;
  const before = existing?.data ? docsOf(existing.data) : null;
  const sameFolder = !!existing && existing.data.folder_id === record.folder_id;
  const wasOn = new Set(before ? [...before.published_items, ...(before.published ? ['*'] : [])] : []);
  const turnedOn = (now.published && !wasOn.has('*')) || now.published_items.some((id) => !wasOn.has(id));
  if (sameFolder && !turnedOn) return;
  const problem = publishProblem(await scope.folders(String(record.board_id)), String(record.folder_id));
  if (problem) throw validation([problem]);
}
