import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import { Button } from '../ui/Button';
import { toast } from '../ui/toast-store';
import { announceJobStarted } from '../board-jobs/jobs-flag';
import { FormError, useServerForm } from '../board-jobs/use-server-form';
import { Templates } from './api';

/**
 * On a board's settings page: "Save as template" (with or without its items; SAVE_AS_TEMPLATE)
 * and "Duplicate board" (a background job whose progress the board-jobs tray shows; CREATE_BOARD).
 * Both need the server, so they are off while offline.
 */
export function BoardTemplateActions({ teamId, boardId, boardName, canSave, canDuplicate, online }: { teamId: number; boardId: string; boardName: string; canSave: boolean; canDuplicate: boolean; online: boolean }) {
  if (!canSave && !canDuplicate) return null;
  return (
    <>
      {canSave && <SaveAsTemplate teamId={teamId} boardId={boardId} boardName={boardName} online={online} />}
      {canDuplicate && <DuplicateBoard teamId={teamId} boardId={boardId} boardName={boardName} online={online} />}
    </>
  );
}

function SaveAsTemplate({ teamId, boardId, boardName, online }: { teamId: number; boardId: string; boardName: string; online: boolean }) {
  const { t } = useLingui();
  const [name, setName] = useState(boardName);
  const [withItems, setWithItems] = useState(false);
  const { busy, error, setError, submit } = useServerForm();
  const [saved, setSaved] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(t`enter the template name`);
    await submit(async () => {
      const template = await Templates.saveBoard(teamId, boardId, { name: name.trim(), with_items: withItems });
      setSaved(template.id);
      toast.show(t`Saved as a template.`, { kind: 'success' });
    });
  };
  return (
    <section className="board-section" aria-labelledby="save-as-template">
      <h2 id="save-as-template">
        <Trans>Save as template</Trans>
      </h2>
      <form className="template-actions" onSubmit={onSubmit} noValidate data-testid="save-as-template">
        <label>
          <Trans>Template name</Trans>
          <input value={name} maxLength={255} aria-invalid={error ? true : undefined} onChange={(e) => (setName(e.target.value), setError(null))} />
        </label>
        <label className="inline-field">
          <input type="checkbox" checked={withItems} onChange={(e) => setWithItems(e.target.checked)} />
          <Trans>Include the items and their values</Trans>
        </label>
        <FormError error={error} />
        <Button type="submit" disabled={busy || !online}>
          <Trans>Save as template</Trans>
        </Button>
        {saved && (
          <p>
            <Link to={pathFor('custom-templates.templates.edit', { templateId: saved })}>
              <Trans>Edit and share the new template</Trans>
            </Link>
          </p>
        )}
      </form>
    </section>
  );
}

function DuplicateBoard({ teamId, boardId, boardName, online }: { teamId: number; boardId: string; boardName: string; online: boolean }) {
  const { t } = useLingui();
  const [name, setName] = useState(t`${boardName} (copy)`);
  const [withItems, setWithItems] = useState(true);
  const [withValues, setWithValues] = useState(true);
  const [withViews, setWithViews] = useState(true);
  const [withAutomations, setWithAutomations] = useState(true);
  const [withComments, setWithComments] = useState(false);
  const { busy, error, setError, submit } = useServerForm();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(t`enter the board name`);
    await submit(async () => {
      await Templates.duplicate(teamId, boardId, { name: name.trim(), with_items: withItems, with_values: withItems && withValues, with_views: withViews, with_automations: withAutomations, with_comments: withItems && withComments });
      // The frame's jobs tray shows its progress (and the cancel) from now on.
      announceJobStarted();
      toast.show(t`Duplicating the board. It appears in the workspace when the copy is done.`, { kind: 'success' });
    });
  };
  return (
    <section className="board-section" aria-labelledby="duplicate-board">
      <h2 id="duplicate-board">
        <Trans>Duplicate board</Trans>
      </h2>
      <form className="template-actions" onSubmit={onSubmit} noValidate data-testid="duplicate-board">
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
          <Trans>Copy the items' values</Trans>
        </label>
        <label className="inline-field">
          <input type="checkbox" checked={withViews} onChange={(e) => setWithViews(e.target.checked)} />
          <Trans>Copy the views</Trans>
        </label>
        <label className="inline-field">
          <input type="checkbox" checked={withAutomations} onChange={(e) => setWithAutomations(e.target.checked)} data-testid="duplicate-automations" />
          <Trans>Copy the automations</Trans>
        </label>
        <label className="inline-field">
          <input type="checkbox" checked={withItems && withComments} disabled={!withItems} onChange={(e) => setWithComments(e.target.checked)} data-testid="duplicate-comments" />
          <Trans>Copy the items’ comments</Trans>
        </label>
        <FormError error={error} />
        <Button type="submit" disabled={busy || !online}>
          <Trans>Duplicate board</Trans>
        </Button>
      </form>
    </section>
  );
}
