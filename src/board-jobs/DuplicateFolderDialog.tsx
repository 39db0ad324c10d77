import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { api } from '../api/client';
import type { BoardJob } from '../../schema/board-jobs';
import type { DuplicateFolderBody } from '../../schema/templates';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';
import { toast } from '../ui/toast-store';
import { announceJobStarted } from './jobs-flag';
import { FormError, useServerForm } from './use-server-form';

/**
 * "Duplicate…" of a folder (decision 0226): a copy beside it on the same board, with or without its
 * items, their values and comments, and its views, made by a board job whose progress the tray
 * shows. The board's attributes and automations are shared by both folders.
 */
export function DuplicateFolderDialog({ teamId, boardId, folder, onClose }: { teamId: number; boardId: string; folder: { id: string; name: string }; onClose: () => void }) {
  const { t } = useLingui();
  const folderName = folder.name;
  const [name, setName] = useState(t`${folderName} (copy)`);
  const [withItems, setWithItems] = useState(true);
  const [withValues, setWithValues] = useState(true);
  const [withViews, setWithViews] = useState(true);
  const [withComments, setWithComments] = useState(false);
  const { busy, error, setError, submit } = useServerForm();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(t`enter the folder name`);
    await submit(async () => {
      const body: DuplicateFolderBody = { folder_id: folder.id, name: name.trim(), with_items: withItems, with_values: withItems && withValues, with_views: withViews, with_comments: withItems && withComments, with_automations: false };
      await api.post<{ data: { job: BoardJob; folder_id: string } }>(`/api/${teamId}/boards/${encodeURIComponent(boardId)}/duplicate-folder`, body);
      announceJobStarted();
      toast.show(t`Duplicating the folder. It appears beside the original when the copy is done.`, { kind: 'success' });
      onClose();
    });
  };
  return (
    <Modal open onClose={onClose} title={t`Duplicate ${folderName}`} size="sm">
      <form className="template-actions" onSubmit={onSubmit} noValidate data-testid="duplicate-folder">
        <label>
          <Trans>Name of the copy</Trans>
          <input value={name} maxLength={255} aria-invalid={error ? true : undefined} onChange={(e) => (setName(e.target.value), setError(null))} />
        </label>
        <label className="inline-field">
          <input type="checkbox" checked={withItems} onChange={(e) => setWithItems(e.target.checked)} />
          <Trans>Copy the items</Trans>
        </label>
        <label className="inline-field">
          <input type="checkbox" checked={withItems && withValues} disabled={!withItems} onChange={(e) => setWithValues(e.target.checked)} />
          <Trans>Copy the items’ values</Trans>
        </label>
        <label className="inline-field">
          <input type="checkbox" checked={withItems && withComments} disabled={!withItems} onChange={(e) => setWithComments(e.target.checked)} />
          <Trans>Copy the items’ comments</Trans>
        </label>
        <label className="inline-field">
          <input type="checkbox" checked={withViews} onChange={(e) => setWithViews(e.target.checked)} />
          <Trans>Copy the views</Trans>
        </label>
        <FormError error={error} />
        <Button type="submit" disabled={busy}>
          <Trans>Duplicate folder</Trans>
        </Button>
      </form>
    </Modal>
  );
}
