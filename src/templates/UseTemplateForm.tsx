import { useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import { useWorkspaces } from '../api/workspaces-cache';
import { Button } from '../ui/Button';
import { createBoardHref } from './links';

/**
 * "Use template": choose the workspace (the gallery's teamId when it came with one) and go on to
 * the create-board screen of that workspace with the template chosen, where the board is named.
 */
export function UseTemplateForm({ templateId, defaultName, teamId }: { templateId: string; defaultName: string; teamId?: number }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { list } = useWorkspaces();
  const [chosen, setChosen] = useState<string>('');
  if (list === null) return null;
  if (list.length === 0) {
    return (
      <p>
        <a href={pathFor('create-workspace')}>
          <Trans>Create a workspace to use this template</Trans>
        </a>
      </p>
    );
  }
  const team = chosen || String(teamId && list.some((w) => w.id === teamId) ? teamId : list[0]!.id);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void navigate({ href: createBoardHref(Number(team), templateId, defaultName) });
  };
  return (
    <form className="use-template" onSubmit={onSubmit} aria-label={t`Use template`}>
      {list.length > 1 && (
        <label>
          <Trans>Workspace</Trans>
          <select value={team} onChange={(e) => setChosen(e.target.value)} data-testid="use-template-workspace">
            {list.map((workspace) => (
              <option key={workspace.id} value={String(workspace.id)}>
                {workspace.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <Button type="submit" variant="primary" data-testid="use-template">
        <Trans>Use template</Trans>
      </Button>
    </form>
  );
}
