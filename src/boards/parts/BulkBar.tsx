import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { plural } from '@lingui/core/macro';
import { Copy, FolderInput, Pencil, Trash2, X } from 'lucide-react';
import { showUndoToast } from './undo-toast';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { trashWithUndo } from '../keys/trash-with-undo';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Attribute, Folder, Item } from '../store/live';
import { READ_ONLY_KINDS, ValueEditor } from './values';

/**
 * Actions on the selected items: set one attribute on all of them, move them to another folder,
 * duplicate or delete them. Each is one undo step. Items the user may not edit are left out, and
 * the user is told how many.
 */
export function BulkBar({ items, folder, onDone }: { items: Item[]; folder: Folder; onDone: () => void }) {
  const { t } = useLingui();
  const board = useBoard();
  const [dialog, setDialog] = useState<'edit' | 'move' | null>(null);
  const editable = items.filter((i) => board.can('EDIT_ITEM', i.folder_id, i.created_by ?? null));
  const deletable = items.filter((i) => board.can('DELETE_ITEM', i.folder_id, i.created_by ?? null));
  const skipped = (n: number) => n < items.length && toast.show(t`${items.length - n} of the selected items were left as they are (no permission).`, { kind: 'info' });

  return (
    <div className="bulk-bar" role="region" aria-label={t`Selected items`} data-testid="bulk-bar">
      <span>{items.length === 1 ? t`1 selected` : t`${items.length} selected`}</span>
      <Button size="sm" variant="secondary" disabled={editable.length === 0} onClick={() => setDialog('edit')}>
        <Pencil size={14} aria-hidden="true" />
        <Trans>Edit</Trans>
      </Button>
      <Button size="sm" variant="secondary" disabled={editable.length === 0} onClick={() => setDialog('move')}>
        <FolderInput size={14} aria-hidden="true" />
        <Trans>Move</Trans>
      </Button>
      <Button size="sm" variant="secondary" disabled={!board.can('CREATE_ITEM', folder.id)} title={board.can('CREATE_ITEM', folder.id) ? undefined : t`You have no permission to create items.`} onClick={() =>
          void board.actions.duplicateItems(items, (name) => t`${name} (copy)`).then(() => {
            showUndoToast(board.actions, plural(items.length, { one: '# item duplicated', other: '# items duplicated' }));
            onDone();
          })
        }
      >
        <Copy size={14} aria-hidden="true" />
        <Trans>Duplicate</Trans>
      </Button>
      <Button
        size="sm"
        variant="danger"
        disabled={deletable.length === 0}
        onClick={async () => {
          // No confirmation: the trash gives them back, and the toast offers Undo.
          await trashWithUndo(board.actions, deletable.map((i) => i.id));
          skipped(deletable.length);
          onDone();
        }}
      >
        <Trash2 size={14} aria-hidden="true" />
        <Trans>Delete</Trans>
      </Button>
      <Button size="sm" variant="ghost" onClick={onDone}>
        <X size={14} aria-hidden="true" />
        <Trans>Clear selection</Trans>
      </Button>
      {dialog === 'edit' && <BulkEdit items={editable} onClose={() => setDialog(null)} onDone={() => (skipped(editable.length), onDone())} />}
      {dialog === 'move' && (
        <Modal open onClose={() => setDialog(null)} title={t`Move to folder`} size="sm">
          <ul className="move-targets">
            {[...board.tree.byId.values()]
              .filter((n) => n.folder.id !== folder.id && board.can('CREATE_ITEM', n.folder.id))
              .map((n) => (
                <li key={n.folder.id} style={{ paddingInlineStart: `${n.depth * 14}px` }}>
                  <button
                    type="button"
                    onClick={async () => {
                      // The target folder is in this board: its items from the board index (no folder index).
                      const boardItems = (await board.backend.db.records.where('[collection+board_id]').equals(['item', board.boardId]).toArray()) as unknown as Item[];
                      const targetItems = boardItems.filter((i) => i.folder_id === n.folder.id);
                      await board.actions.moveItems(editable, n.folder.id, targetItems);
                      const folder = n.folder.name;
                      showUndoToast(board.actions, plural(editable.length, { one: `# item moved to ${folder}`, other: `# items moved to ${folder}` }));
                      skipped(editable.length);
                      setDialog(null);
                      onDone();
                    }}
                  >
                    {n.folder.name}
                  </button>
                </li>
              ))}
          </ul>
        </Modal>
      )}
    </div>
  );
}

function BulkEdit({ items, onClose, onDone }: { items: Item[]; onClose: () => void; onDone: () => void }) {
  const { t } = useLingui();
  const board = useBoard();
  const choices = board.attributes.filter((a) => a.kind !== 'primary' && !READ_ONLY_KINDS.has(a.kind));
  const [attribute, setAttribute] = useState<Attribute | undefined>(choices[0]);
  return (
    <Modal open onClose={onClose} title={t`Edit ${items.length} items`}>
      <label className="inline-field">
        {t`Attribute`}
        <select value={attribute?.id ?? ''} onChange={(e) => setAttribute(choices.find((c) => c.id === e.target.value))}>
          {choices.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      {attribute && items[0] && (
        <ValueEditor
          key={attribute.id}
          attribute={attribute}
          value={null}
          item={items[0]}
          onCommit={async (value) => {
            await board.actions.setValues(items, attribute, value);
            // One named placeholder for every plural form, so translations with more forms keep it.
            const name = attribute.name;
            showUndoToast(board.actions, plural(items.length, { one: `${name} changed on # item`, other: `${name} changed on # items` }));
            onClose();
            onDone();
          }}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}
