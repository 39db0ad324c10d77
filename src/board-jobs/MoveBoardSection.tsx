import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { api } from '../api/client';
import { useWorkspaces } from '../api/workspaces-cache';
import type { BoardJob } from '../../schema/board-jobs';
import { Button } from '../ui/Button';
import { confirm } from '../ui/confirm-store';
import { toast } from '../ui/toast-store';
import { announceJobStarted } from './jobs-flag';
import { FormError, useServerForm } from './use-server-form';

/**
 * "Move to another workspace" on a board's settings page (decision 0227): the caller's other
 * workspaces, a confirmation that says what happens to people who are not members there, then a
 * board job whose progress the tray shows. The server checks DELETE_BOARD here, CREATE_BOARD there
 * and the item limit.
 */
export function MoveBoardSection({ teamId, boardId, boardName, online }: { teamId: number; boardId: string; boardName: string; online: boolean }) {
  const { t } = useLingui();
  const { list } = useWorkspaces();
  const others = (list ?? []).filter((w) => w.id !== teamId && w.user_role !== 'guest');
  const [target, setTarget] = useState<number | ''>('');
  const { busy, error, setError, submit } = useServerForm({ fieldStatuses: [422, 409] });
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const workspace = others.find((w) => w.id === target);
    if (!workspace) return setError(t`choose a workspace`);
    const workspaceName = workspace.name;
    if (!(await confirm({ message: t`Move ${boardName} to ${workspaceName}? People who are not members of ${workspaceName} lose access and are taken off its member lists.` }))) return;
    await submit(async () => {
      await api.post<{ data: BoardJob }>(`/api/${teamId}/boards/${encodeURIComponent(boardId)}/move`, { team_id: workspace.id });
      announceJobStarted();
      toast.show(t`Moving the board. It appears in ${workspaceName} when the move is done.`, { kind: 'success' });
    });
  };
  if (list && others.length === 0) return null;
  return (
    <section className="board-section" aria-labelledby="move-board">
      <h2 id="move-board">
        <Trans>Move to another workspace</Trans>
      </h2>
      <form className="template-actions" onSubmit={onSubmit} noValidate data-testid="move-board">
        <label>
          <Trans>Workspace</Trans>
          <select value={target} onChange={(e) => (setTarget(e.target.value ? Number(e.target.value) : ''), setError(null))} aria-invalid={error ? true : undefined}>
            <option value="">{t`Choose…`}</option>
            {others.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <FormError error={error} />
        <Button type="submit" disabled={busy || !online}>
          <Trans>Move board</Trans>
        </Button>
      </form>
    </section>
  );
}
