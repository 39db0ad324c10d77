import { publishProblem } from '../../schema/doc-publish';
import { kindSettingsOf } from '../../schema/views';
import { validation } from '../http/errors';
import type { SaveContext } from '../sync/rules';

const published = (data: Record<string, unknown> | undefined | null) => data?.kind === 'docs' && kindSettingsOf('docs', data.settings).published;

/**
 * Turning publishing on for a Docs view (or moving a published one) needs its board and every
 * folder down to it public: "Board and parent folders must be public before sharing" (decision 0136).
 * Pages check the same on every request, so a board made private later stops them at once.
 */
export async function checkPublishing({ scope, record, existing }: SaveContext): Promise<void> {
  if (!published(record)) return;
  if (published(existing?.data) && existing!.data.folder_id === record.folder_id) return;
  const problem = publishProblem(await scope.folders(String(record.board_id)), String(record.folder_id));
  if (problem) throw validation([problem]);
}
