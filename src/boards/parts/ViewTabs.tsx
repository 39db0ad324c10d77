import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { isProViewKind, viewChangeProblem, type ViewKind, type ViewVisibility } from '../../../schema/views';
import { pathFor } from '../../../schema/routes';
import { useNavigate } from '@tanstack/react-router';
import { useProViews } from '../pro-views';
import { PopupMenu } from '../../ui/PopupMenu';
import { ViewKindIcon } from '../../ui/kind-icons';
import { Plus } from 'lucide-react';
import { confirm } from '../../ui/confirm-store';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Folder, FolderView } from '../store/live';
import { NameDialog } from './NameDialog';
import { viewActor } from './use-change-view';

/** The folder's views as tabs, with add, rename, shared/personal/locked and delete. */
export function ViewTabs({ folder, views, active, onSelect }: { folder: Folder; views: FolderView[]; active: FolderView | null; onSelect: (id: string) => void }) {
  const { t } = useLingui();
  const board = useBoard();
  const [renaming, setRenaming] = useState<FolderView | null>(null);
  const actor = viewActor(board, folder.id);
  const setVisibility = async (view: FolderView, visibility: ViewVisibility) => {
    const problem = viewChangeProblem(view, { ...view, visibility }, actor);
    if (problem) {
      toast.show(problem, { kind: 'error' });
      return;
    }
    await board.actions.updateView(view, { visibility });
  };
  // The kinds offered, with the name a new view of each gets. A new view saves `settings: {}`:
  // its defaults (which date attribute…) follow the board (schema/views.ts resolveViewSettings).
  const kindNames: Record<ViewKind, string> = { table: t`Table`, column: t`Columns`, calendar: t`Calendar`, gantt: t`Gantt`, list: t`List`, chart: t`Chart`, form: t`Form`, docs: t`Docs` };
  const pro = useProViews(board.teamId);
  const navigate = useNavigate();
  const add = async (kind: ViewKind) => {
    // A Pro-only kind on a plan without it: say so and offer the plans instead of a refused save (decision 0260).
    if (isProViewKind(kind) && !pro.allowed) {
      const go = await confirm({
        title: t`${kindNames[kind]} is part of the Pro plan`,
        message: t`Upgrade the workspace’s plan to add ${kindNames[kind]} views. The workspace owner can upgrade on the billing page.`,
        confirmLabel: t`See plans`,
      });
      if (go) void navigate({ to: pathFor('profile.billing') });
      return;
    }
    const id = await board.actions.createView(folder.id, kindNames[kind], kind, views);
    onSelect(id);
  };
  const visibilityLabel = (v: string) => (v === 'personal' ? t`personal` : v === 'locked' ? t`locked` : '');
  return (
    <div className="view-tabs">
      {/* The tablist holds only the tabs (ARIA); it lays out as contents, so each tab's actions
          button (outside it) sits right after its tab through `order`. */}
      <div className="view-tablist" role="tablist" aria-label={t`Views`}>
        {views.length === 0 && (
          <span role="tab" aria-selected className="view-tab is-active">
            <ViewKindIcon kind="table" />
            <Trans>Table</Trans>
          </span>
        )}
        {views.map((view, index) => (
          <span key={view.id} role="presentation" className={`view-tab${view.id === active?.id ? ' is-active' : ''}`} style={{ order: 2 * index }}>
            <button type="button" role="tab" aria-selected={view.id === active?.id} onClick={() => onSelect(view.id)} data-view-kind={view.kind}>
              <ViewKindIcon kind={view.kind} />
              {view.name}
              {view.visibility !== 'shared' && <small className="view-visibility"> · {visibilityLabel(view.visibility)}</small>}
            </button>
          </span>
        ))}
      </div>
      {!board.readOnly &&
        actor.canCustomize &&
        views.map((view, index) => (
          <span key={view.id} className="view-tab-menu" style={{ order: 2 * index + 1 }}>
            <PopupMenu
              label={t`View actions for ${view.name}`}
              items={[
                { label: t`Rename`, onSelect: () => setRenaming(view) },
                { label: t`Shared`, onSelect: () => void setVisibility(view, 'shared'), disabled: view.visibility === 'shared' },
                { label: t`Personal`, onSelect: () => void setVisibility(view, 'personal'), disabled: view.visibility === 'personal' },
                { label: t`Locked`, onSelect: () => void setVisibility(view, 'locked'), disabled: view.visibility === 'locked' },
                ...(board.can('DELETE_VIEW', folder.id, view.owner_id ?? null)
                  ? [{ label: t`Delete`, danger: true, separatorBefore: true, onSelect: async () => (await confirm()) && board.backend.remove('folder_view', view.id, { teamId: board.teamId }) }]
                  : []),
              ]}
            />
          </span>
        ))}
      {!board.readOnly && board.can('CREATE_VIEW', folder.id) && (
        <PopupMenu
          label={t`Add view`}
          renderTrigger={(props) => (
            <button type="button" className="view-add" aria-label={t`Add view`} style={{ order: 2 * views.length + 1 }} {...props}>
              <Plus size={15} aria-hidden="true" /> <Trans>View</Trans>
            </button>
          )}
          items={(Object.keys(kindNames) as ViewKind[]).map((kind) => ({ label: kindNames[kind], icon: <ViewKindIcon kind={kind} />, badge: pro.billing && isProViewKind(kind) ? t`Pro` : undefined, onSelect: () => void add(kind) }))}
        />
      )}
      {renaming && <NameDialog title={t`Rename view`} initial={renaming.name} onClose={() => setRenaming(null)} onSave={(name) => board.actions.updateView(renaming, { name })} />}
    </div>
  );
}
