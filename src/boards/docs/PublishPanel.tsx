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
 * "Publish on the web" for a Docs view (decision 0136), or "Publish this document" for the open
 * one alone (decision 0210): anyone with the links reads the documents as plain pages. Needs the board and every folder down to this one public (the server says the
 * same); turning it off stops the pages at once.
 */
export function PublishPanel({ folder, view, current }: { folder: Folder; view: ShownView; current: Item | null }) {
  const { t } = useLingui();
  const board = useBoard();
  const mayChange = useMayChangeView(folder, view);
  const change = useChangeView(folder, view);
  const settings = view.record ? kindSettingsOf('docs', view.record.settings) : null;
  const published = settings?.published ?? false;
  const publishedItems = settings?.published_items ?? [];
  const currentAlone = !!current && publishedItems.includes(current.id);
  const folders = useMemo(() => new Map(board.folders.map((f) => [f.id, f as unknown as PublishFolder])), [board.folders]);
  if (!view.record || (!mayChange && !published && !currentAlone)) return null;

  const mayPublish = (on: boolean) => {
    if (on && publishProblem(folders, folder.id) !== null) {
      toast.show(t`Board and parent folders must be public before sharing.`, { kind: 'error' });
      return false;
    }
    return true;
  };
  const toggle = async (on: boolean) => {
    if (mayPublish(on)) await change({ published: on });
  };
  /** One document alone (decision 0210): its /p/i… page, while the view as a whole is not published. */
  const toggleCurrent = async (on: boolean) => {
    if (!current || !mayPublish(on)) return;
    const rest = publishedItems.filter((id) => id !== current.id);
    await change({ published_items: on ? [...rest, current.id] : rest });
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
      {mayChange && current && !published && (
        <label className="docs-publish-toggle">
          <input type="checkbox" checked={currentAlone} onChange={(e) => void toggleCurrent(e.target.checked)} data-testid="doc-publish-one" />
          <Trans>Publish this document</Trans>
        </label>
      )}
      {!published && currentAlone && docLink && (
        <ul className="docs-publish-links">
          <li>
            <a href={docLink} target="_blank" rel="noopener" data-testid="doc-public-link">
              <Trans>Published page of this document</Trans>
            </a>
          </li>
        </ul>
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
