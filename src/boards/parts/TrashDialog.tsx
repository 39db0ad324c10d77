import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Messages } from '../../../schema/messages';
import type { SyncRecord } from '../../../sync-worker/client';
import { useOnline } from '../../connectivity/use-connectivity';
import { translateMessage } from '../../i18n/server-messages';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { confirm } from '../../ui/confirm-store';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';

type Entry = { collection: string; id: string; record: SyncRecord };

/** The board's trash: items, folders and attributes, each restorable or deletable for good (online). */
export function TrashDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const board = useBoard();
  const online = useOnline();
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const load = () => {
    setFailed(null);
    board.backend.trash(board.teamId, board.boardId).then(
      (list) => setEntries(list.filter((e) => ['item', 'folder', 'attribute'].includes(e.collection))),
      (err) => setFailed(translateMessage((err as Error).message)),
    );
  };
  useEffect(load, [board.backend, board.teamId, board.boardId]);

  const kindLabel = (collection: string) => (collection === 'item' ? t`Item` : collection === 'folder' ? t`Folder` : t`Attribute`);
  const act = async (entry: Entry, how: 'restore' | 'purge') => {
    try {
      if (how === 'restore') await board.backend.restore(board.teamId, entry.collection, entry.id);
      else {
        if (!(await confirm({ message: t`Delete this for good? This cannot be undone.`, danger: true }))) return;
        await board.backend.purge(board.teamId, entry.collection, entry.id);
      }
      setEntries((list) => (list ?? []).filter((e) => !(e.collection === entry.collection && e.id === entry.id)));
      toast.show(how === 'restore' ? t`Restored.` : t`Deleted for good.`, { kind: 'success' });
    } catch (err) {
      toast.show(translateMessage((err as Error).message), { kind: 'error' });
    }
  };

  return (
    <Modal open onClose={onClose} title={t`Trash`} size="lg">
      {!online ? (
        <EmptyState title={translateMessage(Messages.offlineFeature)} />
      ) : failed ? (
        <EmptyState title={failed} />
      ) : entries === null ? (
        <Spinner />
      ) : entries.length === 0 ? (
        <EmptyState title={t`The trash is empty.`} />
      ) : (
        <ul className="trash-list" data-testid="trash-list">
          {entries.map((entry) => (
            <li key={`${entry.collection}:${entry.id}`} data-trash-id={entry.id}>
              <small className="trash-kind">{kindLabel(entry.collection)}</small>
              <span className="trash-name">{String(entry.record.name ?? '') || t`Untitled`}</span>
              <Button size="sm" variant="secondary" onClick={() => void act(entry, 'restore')}>
                <Trans>Restore</Trans>
              </Button>
              <Button size="sm" variant="danger" onClick={() => void act(entry, 'purge')}>
                <Trans>Delete for good</Trans>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
