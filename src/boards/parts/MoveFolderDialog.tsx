import { useLingui } from '@lingui/react/macro';
import { Modal } from '../../ui/Modal';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Folder } from '../store/live';
import { folderMoveProblem } from '../model/tree';

/** "Move to…": every folder the chosen one may move under (not its own subtree, not where it is). */
export function MoveFolderDialog({ folder, onClose }: { folder: Folder; onClose: () => void }) {
  const { t } = useLingui();
  const board = useBoard();
  const byId = new Map(board.folders.map((f) => [f.id, f]));
  const targets = [...board.tree.byId.values()].filter((n) => folderMoveProblem(byId, folder.id, n.folder.id) === null && n.folder.id !== folder.parent_id);
  return (
    <Modal open onClose={onClose} title={t`Move ${folder.name} to…`} size="sm">
      <ul className="move-targets">
        {targets.map((n) => (
          <li key={n.folder.id} style={{ paddingInlineStart: `${n.depth * 14}px` }}>
            <button
              type="button"
              onClick={async () => {
                if (!board.can('CREATE_FOLDER', n.folder.id)) {
                  toast.show(t`This action is unauthorized.`, { kind: 'error' });
                  return;
                }
                await board.actions.moveFolder(folder, n.folder.id, n.children.map((c) => c.folder), n.children.length);
                onClose();
              }}
            >
              {n.folder.name}
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
