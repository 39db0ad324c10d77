import { useLingui } from '@lingui/react/macro';
import { viewChangeProblem } from '../../../schema/views';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Folder } from '../store/live';
import type { ShownView } from './FolderPane';

/**
 * Changes a view's settings, after the visibility rules; a folder without a saved view gets one
 * (the built-in Table becomes a real, shared folder_view on the first change).
 */
export function useChangeView(folder: Folder, view: ShownView) {
  const { t } = useLingui();
  const board = useBoard();
  return async (patch: Record<string, unknown>): Promise<boolean> => {
    if (board.readOnly) return false;
    const actor = {
      userId: board.backend.userId,
      isWorkspaceOwner: board.info?.viewer.role === 'owner',
      canEditLocked: board.can('EDIT_LOCKED_VIEWS', folder.id),
      canCustomize: board.can('CUSTOMIZE_VIEW', folder.id),
    };
    if (!view.record) {
      if (!board.can('CREATE_VIEW', folder.id)) {
        toast.show(t`This action is unauthorized.`, { kind: 'error' });
        return false;
      }
      await board.actions.createView(folder.id, t`Table`, view.kind, [], { ...view.settings, ...patch });
      return true;
    }
    const problem = viewChangeProblem(view.record, view.record, actor);
    if (problem) {
      toast.show(problem, { kind: 'error' });
      return false;
    }
    await board.actions.updateViewSettings(view.record, patch);
    return true;
  };
}
