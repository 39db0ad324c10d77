import { Component, Suspense, useState, type ReactNode } from 'react';
import { lazyRetry } from '../../ui/lazy-retry';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { trashWithUndo } from '../keys/trash-with-undo';
import { MobileHeader } from '../../ui/MobileHeader';
import { useBoard } from '../BoardContext';
import { useItemValues, useRecord, type Item } from '../store/live';
import { READ_ONLY_KINDS, ValueDisplay, ValueEditor } from './values';
import { TimerControl } from '../time/TimerControl';
import { ButtonControl } from '../automations/ButtonControl';
import { FollowButton } from './FollowButton';
import { toast } from '../../ui/toast-store';
import { showApiError } from '../../api/handle-error';
import { startPdfExport } from '../../board-jobs/jobs-api';
import { announceJobStarted } from '../../board-jobs/jobs-flag';

// Their own chunks: the comment editor (TipTap) and the activity list load when their tab opens.
const CommentsTab = lazyRetry(() => import('../comments/CommentsTab'));
const ItemActivityTab = lazyRetry(() => import('../activity/ItemActivityTab'));
const TimeEntriesTab = lazyRetry(() => import('../time/TimeEntriesTab'));

/** A tab that fails (or whose chunk cannot load) shows a note; the panel and its other tabs stay. */
class TabBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * The item panel (board/{folderId}/{itemId}): the item's name and every attribute with its editor
 * (the attributes tab), its comments (`?t=comments`, `&comment={id}` highlights one) and its
 * activity (`?t=activity`), plus duplicate and delete.
 */
export function ItemPanel({ itemId, tab }: { itemId: string; tab: string }) {
  const { t } = useLingui();
  const board = useBoard();
  const navigate = useNavigate();
  const item = useRecord<Item>('item', itemId);
  const values = useItemValues(itemId);
  const [editing, setEditing] = useState<string | null>(null);
  const highlightComment = (useSearch({ strict: false }) as { comment?: string }).comment ?? null;
  const close = () => board.openItem(null, item?.folder_id);
  const tabHref = (name: string) => pathFor('folder', { rootId: board.boardId, folderId: item?.folder_id ?? board.boardId, itemId }) + `?t=${name}`;

  if (item === undefined) return null;
  if (item === null || item.deleted_at) {
    return (
      <aside className="item-panel" data-testid="item-panel" aria-label={t`Item`}>
        <EmptyState title={t`The item was deleted or never existed.`} />
        <Button variant="secondary" onClick={close}>
          <Trans>Close</Trans>
        </Button>
      </aside>
    );
  }
  const editable = board.can('EDIT_ITEM', item.folder_id, item.created_by ?? null);
  const shown = board.attributes.filter((a) => !a.hidden);
  // One item's log is for whoever may read the item (the board's whole log needs VIEW_ACTIVITY_LOG);
  // it is read online through the worker, so signed-in users only.
  const mayViewActivity = board.backend.userId !== null;
  const tracksTime = board.attributes.some((a) => a.kind === 'time-tracking');
  return (
    <aside className="item-panel" data-testid="item-panel" aria-label={t`Item`} data-item-id={item.id} onKeyDown={(e) => e.key === 'Escape' && !editing && close()}>
      {/* On a phone the panel is a full-screen sheet: a Back bar on top (hidden on desktop by CSS). */}
      <div className="item-panel-mobile-head">
        <MobileHeader title={board.board.name} onBack={close} />
      </div>
      <header className="item-panel-head">
        <h2>{item.name || t`Untitled`}</h2>
        {board.backend.userId !== null && !board.backend.preview && !board.readOnly && <FollowButton teamId={board.teamId} itemId={item.id} />}
        <Button variant="ghost" size="sm" onClick={close} aria-label={t`Close item`}>
          ×
        </Button>
      </header>
      <nav className="item-tabs" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'attributes'} onClick={() => void navigate({ href: tabHref('attributes') })}>
          <Trans>Attributes</Trans>
        </button>
        <button type="button" role="tab" aria-selected={tab === 'comments'} onClick={() => void navigate({ href: tabHref('comments') })}>
          <Trans>Comments</Trans>
        </button>
        {tracksTime && (
          <button type="button" role="tab" aria-selected={tab === 'time'} onClick={() => void navigate({ href: tabHref('time') })}>
            <Trans>Time</Trans>
          </button>
        )}
        {mayViewActivity && (
          <button type="button" role="tab" aria-selected={tab === 'activity'} onClick={() => void navigate({ href: tabHref('activity') })}>
            <Trans>Activity</Trans>
          </button>
        )}
      </nav>
      {tab === 'comments' ? (
        <TabBoundary key="comments" fallback={<EmptyState title={t`This tab could not be shown. Reload the page to try again.`} />}>
          <Suspense fallback={<Spinner />}>
            <CommentsTab item={item} highlightId={highlightComment} />
          </Suspense>
        </TabBoundary>
      ) : tab === 'time' && tracksTime ? (
        <TabBoundary key="time" fallback={<EmptyState title={t`This tab could not be shown. Reload the page to try again.`} />}>
          <Suspense fallback={<Spinner />}>
            <TimeEntriesTab item={item} />
          </Suspense>
        </TabBoundary>
      ) : tab === 'activity' && mayViewActivity ? (
        <TabBoundary key="activity" fallback={<EmptyState title={t`This tab could not be shown. Reload the page to try again.`} />}>
          <Suspense fallback={<Spinner />}>
            <ItemActivityTab item={item} />
          </Suspense>
        </TabBoundary>
      ) : (
        <dl className="item-attributes" data-testid="item-attributes">
          {shown.map((attribute) => {
            const value = values.get(attribute.id) ?? null;
            const canEditThis = editable && !READ_ONLY_KINDS.has(attribute.kind);
            return (
              <div key={attribute.id} className="item-attribute" data-attribute-id={attribute.id}>
                <dt>{attribute.name}</dt>
                <dd>
                  {attribute.kind === 'time-tracking' ? (
                    <TimerControl attribute={attribute} item={item} />
                  ) : attribute.kind === 'button' ? (
                    // Its own button (never inside the read-only value button, which is disabled).
                    <ButtonControl attribute={attribute} item={item} />
                  ) : editing === attribute.id ? (
                    <ValueEditor
                      attribute={attribute}
                      value={value}
                      item={item}
                      onCommit={async (v, how) => {
                        await board.actions.setValue(item, attribute, v);
                        // A pick in the people picker saves and leaves it open for the next one.
                        if (how !== 'stay') setEditing(null);
                      }}
                      onCancel={() => setEditing(null)}
                    />
                  ) : (
                    <button type="button" className="item-attribute-value" disabled={!canEditThis} onClick={() => setEditing(attribute.id)} aria-label={t`Edit ${attribute.name}`}>
                      <ValueDisplay attribute={attribute} value={value} item={item} />
                      {value === null && attribute.kind !== 'primary' && canEditThis && <span className="placeholder">{t`Empty`}</span>}
                    </button>
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
      {!board.readOnly && (
        <footer className="item-panel-actions">
          {board.can('CREATE_ITEM', item.folder_id) && (
            <Button variant="secondary" size="sm" onClick={() => void board.actions.duplicateItems([item], (name) => t`${name} (copy)`).then(([id]) => id && board.openItem(id, item.folder_id))}>
              <Trans>Duplicate</Trans>
            </Button>
          )}
          {board.can('EXPORT', item.folder_id) && (
            <Button variant="secondary" size="sm" data-testid="item-pdf-button" onClick={() => void exportItemPdf(board.teamId, board.boardId, item.id, t`The PDF is being made; it appears in the jobs tray.`)}>
              <Trans>Export PDF</Trans>
            </Button>
          )}
          {board.can('DELETE_ITEM', item.folder_id, item.created_by ?? null) && (
            <Button
              variant="danger"
              size="sm"
              onClick={async () => {
                // No confirmation: the trash gives it back, and the toast offers Undo.
                close();
                await trashWithUndo(board.actions, [item.id]);
              }}
            >
              <Trans>Delete</Trans>
            </Button>
          )}
        </footer>
      )}
    </aside>
  );
}

/** The item with its values and comments as a PDF, drawn on the server as a board job (decision 0225). */
async function exportItemPdf(teamId: number, boardId: string, itemId: string, started: string): Promise<void> {
  try {
    await startPdfExport(teamId, boardId, { item_id: itemId });
    announceJobStarted();
    toast.show(started);
  } catch (error) {
    showApiError(error);
  }
}
