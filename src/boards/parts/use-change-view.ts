import { useLingui } from '@lingui/react/macro';
import { canChangeView, viewChangeProblem, type ViewActor } from '../../../schema/views';
import { toast } from '../../ui/toast-store';
import { useBoard, type BoardState } from '../BoardContext';
import type { Folder } from '../store/live';
import type { ShownView } from './FolderPane';
import { personalKeyOf, personalSettingsOf, resetPersonal, setPersonal, splitPatch, unsavedChanges } from '../views/personal-view';

/** Who is changing a view in this folder, for the visibility rules (schema/views.ts). */
export function viewActor(board: BoardState, folderId: string): ViewActor {
  return {
    userId: board.backend.userId,
    // A preview tab allows every permission (decision 0280), the owner's view rights too.
    isWorkspaceOwner: board.backend.preview === true || board.info?.viewer.role === 'owner',
    canEditLocked: board.can('EDIT_LOCKED_VIEWS', folderId),
    canCustomize: board.can('CUSTOMIZE_VIEW', folderId),
  };
}

/** Whether this user may save a change to this (saved) view: else a view's own choices stay local. */
export function useMayChangeView(folder: Folder, view: ShownView): boolean {
  const board = useBoard();
  return !board.readOnly && view.record !== null && canChangeView(view.record, viewActor(board, folder.id));
}

/**
 * Changes a view's settings. Filters, sorts and groups (views/personal-view.ts PERSONAL_KEYS) are
 * the user's own until saved for everyone: they are kept locally and the shared view is left alone.
 * Other settings (columns, widths, a kind's own keys) change the shared view, after the visibility
 * rules; a folder without a saved view gets one (the built-in Table becomes a real, shared
 * folder_view on the first such change).
 */
export function useChangeView(folder: Folder, view: ShownView) {
  const share = useShareView(folder, view);
  return async (patch: Record<string, unknown>): Promise<boolean> => {
    const { personal, shared } = splitPatch(patch);
    if (Object.keys(personal).length) setPersonal(view.personalKey, personal);
    if (Object.keys(shared).length === 0) return true;
    return share(shared);
  };
}

/**
 * "Save for everyone": writes the user's personal filters, sorts and groups into the shared view
 * and drops the personal copy. False (and the copy kept) when the user may not change the view.
 */
export function useSaveForEveryone(folder: Folder, view: ShownView) {
  const share = useShareView(folder, view);
  return async (): Promise<boolean> => {
    const changes = unsavedChanges(view.shared, readPersonal(view));
    if (!changes) return true;
    if (!(await share(changes, false))) return false;
    resetPersonal(view.personalKey);
    return true;
  };
}

const readPersonal = (view: ShownView) => personalSettingsOf(view.personalKey);

/** Writes settings into the shared view (what every member sees). */
function useShareView(folder: Folder, view: ShownView) {
  const { t } = useLingui();
  const board = useBoard();
  return async (patch: Record<string, unknown>, carryPersonal = true): Promise<boolean> => {
    if (board.readOnly) return false;
    if (!view.record) {
      if (!board.can('CREATE_VIEW', folder.id)) {
        toast.show(t`This action is unauthorized.`, { kind: 'error' });
        return false;
      }
      // Made from the shared settings: the user's personal ones stay theirs, moved to the new view.
      const id = await board.actions.createView(folder.id, t`Table`, view.kind, [], { ...view.shared, ...patch });
      const mine = carryPersonal ? unsavedChanges(view.shared, readPersonal(view)) : null;
      if (mine) setPersonal(personalKeyOf(board.backend.userId ?? null, board.boardId, id, folder.id), mine);
      resetPersonal(view.personalKey);
      return true;
    }
    const problem = viewChangeProblem(view.record, view.record, viewActor(board, folder.id));
    if (problem) {
      toast.show(problem, { kind: 'error' });
      return false;
    }
    await board.actions.updateViewSettings(view.record, patch);
    return true;
  };
}
