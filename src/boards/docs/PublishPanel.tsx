import { useMemo } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { itemSlug, publishedPath, publishProblem, type PublishFolder } from '../../../schema/doc-publish';
import { kindSettingsOf } from '../../../schema/views';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Folder, Item } from '../store/live';
import type { ShownView } from '../parts/FolderPane';
import { useChangeView, useMayChangeView } from '../parts/use-change-view';

/**
 * "Publish on the web" for a Docs view (decision 0136): anyone with the links reads its documents
 * as plain pages. Needs the board and every folder down to this one public (the server says the
 * same); turning it off stops the pages at once.
 */
export function PublishPanel({ folder, view, current }: { folder: Folder; view: ShownView; current: Item | null }) {
  const { t } = useLingui();
  const board = useBoard();
  const mayChange = useMayChangeView(folder, view);
  const change = useChangeView(folder, view);
  const published = view.record ? kindSettingsOf('docs', view.record.settings).published : false;
  const folders = useMemo(() => new Map(board.folders.map((f) => [f.id, f as unknown as PublishFolder])), [board.folders]);
  if (!view.record || (!mayChange && !published)) return null;

  const toggle = async (on: boolean) => {
    if (on && publishProblem(folders, folder.id) !== null) {
      toast.show(t`Board and parent folders must be public before sharing.`, { kind: 'error' });
      return;
    }
    await change({ published: on });
  };
  const origin = window.location.origin;
  const viewLink = origin + publishedPath('e', board.teamId, view.record.id);
  const docLink = current ? origin + publishedPath('i', board.teamId, view.record.id, itemSlug(current)) : null;

  return (
    <div className="docs-publish">
      {mayChange && (
        <label className="docs-publish-toggle">
          <input type="checkbox" checked={published} onChange={(e) => void toggle(e.target.checked)} />
          <Trans>Publish on the web</Trans>
        </label>
      )}
      {published && (
        <ul className="docs-publish-links">
          <li>
            <a href={viewLink} target="_blank" rel="noopener">
              <Trans>Published documents</Trans>
            </a>
          </li>
          {docLink && (
            <li>
              <a href={docLink} target="_blank" rel="noopener" data-testid="doc-public-link">
                <Trans>Published page of this document</Trans>
              </a>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
