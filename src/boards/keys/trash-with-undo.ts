import { plural, t } from '@lingui/core/macro';
import { toast } from '../../ui/toast-store';
import type { BoardActions } from '../store/actions';

/**
 * Moves items to the trash without asking (the trash gives them back) and says so in a toast with
 * Undo (issue #17 parts 3 and 4). Undo reverts the step, like Ctrl+Z.
 */
export async function trashWithUndo(actions: BoardActions, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await actions.deleteItems(ids);
  const count = ids.length;
  toast.show(plural(count, { one: '# item moved to the trash', other: '# items moved to the trash' }), {
    kind: 'info',
    id: 'board-trashed',
    action: {
      label: t`Undo`,
      run: () => {
        void actions.undo().then((label) => label && toast.show(t`Restored from the trash`, { kind: 'success', id: 'board-trashed' }));
      },
    },
  });
}
