import { t } from '@lingui/core/macro';
import { toast } from '../../ui/toast-store';
import type { BoardActions } from '../store/actions';

/**
 * Says what a bulk action did in a toast with Undo (issue #17 part 4): Undo reverts the step like
 * Ctrl+Z (the action was the last one on the history, so it is the one undone).
 */
export function showUndoToast(actions: BoardActions, message: string): void {
  toast.show(message, {
    kind: 'info',
    // One undo toast at a time, shared with trashWithUndo: Undo reverts the latest step, so an older
    // toast's button would undo the wrong one; the newer toast replaces it.
    id: 'board-trashed',
    action: {
      label: t`Undo`,
      run: () => {
        void actions.undo().then((label) => label && toast.show(t`Undone`, { kind: 'success', id: 'board-trashed' }));
      },
    },
  });
}
