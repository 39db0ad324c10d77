import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { useTeamId } from '../../screens/workspace/use-team';
import { Page } from '../../screens/Page';
import { Button } from '../../ui/Button';
import { createBoard } from '../store/actions';
import { WithBackend } from './with-backend';
import { CreateFromTemplate } from '../../templates/CreateFromTemplate';
import '../boards.css';

/**
 * create-board (/team/{teamId}/boards/create?name=&start=&template=): the board name is required
 * ("enter the board name"). Works offline: the board is created locally and synced later.
 * `template` names a template to start from: the board is then made on the server from it
 * (src/templates/CreateFromTemplate.tsx); `start=template` offers the gallery first.
 */
export default function CreateBoardPage() {
  const { t } = useLingui();
  const teamId = useTeamId();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { name?: string; start?: string; template?: string };
  const [name, setName] = useState(search.name ?? '');
  const [error, setError] = useState<string | null>(null);
  if (search.template) {
    return (
      <Page title={t`New board`} narrow>
        <CreateFromTemplate teamId={teamId} templateId={String(search.template)} initialName={search.name} />
      </Page>
    );
  }
  return (
    <Page title={t`New board`} narrow>
      {search.start === 'template' && (
        <p className="hint" data-testid="start-from-template">
          <Trans>Start from a template?</Trans> <Link to={`${pathFor('templates.home')}?teamId=${teamId}`}>{t`Open the template gallery`}</Link>
        </p>
      )}
      <WithBackend>
        {(backend) => (
          <form
            className="board-form"
            data-testid="create-board-form"
            noValidate
            onSubmit={async (event: FormEvent) => {
              event.preventDefault();
              if (!name.trim()) return setError(t`enter the board name`);
              const id = await createBoard(backend, teamId, name);
              await navigate({ href: pathFor('board', { rootId: id }) });
            }}
          >
            <label>
              <Trans>Board name</Trans>
              <input autoFocus name="name" value={name} aria-invalid={error ? true : undefined} onChange={(e) => (setName(e.target.value), setError(null))} />
            </label>
            {error && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )}
            <p className="hint">
              <Link to={`${pathFor('templates.home')}?teamId=${teamId}`}>
                <Trans>Or start from a template</Trans>
              </Link>
            </p>
            <div className="board-form-actions">
              <Button type="button" variant="secondary" onClick={() => void navigate({ href: pathFor('team.boards', { teamId }) })}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit">
                <Trans>Create board</Trans>
              </Button>
            </div>
          </form>
        )}
      </WithBackend>
    </Page>
  );
}
