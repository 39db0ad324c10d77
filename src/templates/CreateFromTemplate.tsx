import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react';
import { Trans, useLingui as useMacroLingui } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import { FormError, useServerForm } from '../board-jobs/use-server-form';
import { Button } from '../ui/Button';
import { Templates } from './api';
import { useTemplate } from './load-template';
import { TemplateState } from './TemplateState';
import { templateName } from './texts';
import { withQuery } from './links';

/**
 * create-board?template={id}: the board is made on the server from the template (its
 * attributes, views and example items, with new ids) in this workspace, then opened. Needs the
 * server (templates are not in the offline replica).
 */
export function CreateFromTemplate({ teamId, templateId, initialName }: { teamId: number; templateId: string; initialName?: string }) {
  const { i18n } = useLingui();
  const { t } = useMacroLingui();
  const navigate = useNavigate();
  const [loaded] = useTemplate(templateId);
  const [name, setName] = useState<string | null>(initialName ?? null);
  const { busy, error, setError, submit } = useServerForm({ busyAfterSuccess: true });
  if (loaded.state !== 'ready') return <TemplateState loaded={loaded} />;
  const template = loaded.template;
  const shown = name ?? templateName(i18n, template);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!shown.trim()) return setError(t`enter the board name`);
    await submit(async () => {
      const made = await Templates.use(teamId, template.id, shown.trim());
      await navigate({ href: pathFor('board', { rootId: made.board_id }) });
    });
  };
  return (
    <form className="board-form" data-testid="create-board-form" noValidate onSubmit={onSubmit}>
      <p data-testid="chosen-template">
        <Trans>
          From the template <strong>{templateName(i18n, template)}</strong>
        </Trans>{' '}
        <Link to={withQuery(pathFor('templates.home'), { teamId })}>
          <Trans>Choose another</Trans>
        </Link>
      </p>
      <label>
        <Trans>Board name</Trans>
        <input autoFocus name="name" value={shown} aria-invalid={error ? true : undefined} onChange={(e) => (setName(e.target.value), setError(null))} />
      </label>
      <FormError error={error} />
      <div className="board-form-actions">
        <Button type="button" variant="secondary" onClick={() => void navigate({ href: pathFor('team.boards', { teamId }) })}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" variant="primary" disabled={busy}>
          <Trans>Create board</Trans>
        </Button>
      </div>
    </form>
  );
}
