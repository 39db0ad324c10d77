import { useLingui } from '@lingui/react/macro';
import { canChangeView, viewChangeProblem, type ViewActor } from '../../../schema/views';
import { toast } from '../../ui/toast-store';
import { useBoard, type BoardState } from '../BoardContext';
import type { Folder } from '../store/live';
import type { ShownView } from './FolderPane';

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
 * Changes a view's settings, after the visibility rules; a folder without a saved view gets one
 * (the built-in Table becomes a real, shared folder_view on the first change).
 */
export function useChangeView(folder: Folder, view: ShownView) {
  const { t } = useLingui();
  const board = useBoard();
  return async (patch: Record<string, unknown>): Promise<boolean> => {
    if (board.readOnly) return false;
    if (!view.record) {
      if (!board.can('CREATE_VIEW', folder.id)) {
        toast.show(t`This action is unauthorized.`, { kind: 'error' });
        return false;
      }
      await board.actions.createView(folder.id, t`Table`, view.kind, [], { ...view.settings, ...patch });
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
