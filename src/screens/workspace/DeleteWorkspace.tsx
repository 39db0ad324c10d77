import { useId, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { api } from '../../api/client';
import type { Workspace } from '../../api/endpoints';
import { workspaces } from '../../api/workspaces-cache';
import { useAction } from '../forms';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/toast-store';
import './workspace.css';

/** The word typed to confirm; not translated, so the instruction reads the same in every language. */
export const DELETE_WORD = 'DELETE';

/**
 * The owner's "Delete workspace" (DELETE /api/teams/{id}): everything in it goes, for everyone, so
 * it asks for the word DELETE typed out. The server asks for the password again when the last
 * sign-in is old (the shell sends the user to confirm it and back).
 */
export function DeleteWorkspace({ team }: { team: Workspace }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const id = useId();
  const [typed, setTyped] = useState('');
  const [run, busy] = useAction(async () => {
    await api.delete(`/api/teams/${team.id}`);
    toast.show(t`The workspace ${team.name} was deleted.`, { kind: 'success' });
    await workspaces.refresh().catch(() => undefined);
    await navigate({ to: pathFor('home') });
  });
  return (
    <section className="danger-zone" aria-labelledby={`${id}-title`} data-testid="delete-workspace">
      <h2 id={`${id}-title`}>
        <Trans>Delete this workspace</Trans>
      </h2>
      <p>
        <Trans>All its boards, items, comments and files are deleted for every member, and this cannot be undone.</Trans>
      </p>
      <label htmlFor={id}>
        <Trans>Type DELETE to confirm</Trans>
      </label>
      <input id={id} value={typed} autoComplete="off" spellCheck={false} onChange={(e) => setTyped(e.target.value)} data-testid="delete-workspace-confirm" />
      <div>
        <Button variant="danger" disabled={typed.trim() !== DELETE_WORD || busy} onClick={() => void run()} data-testid="delete-workspace-button">
          <Trans>Delete workspace</Trans>
        </Button>
      </div>
    </section>
  );
}
