import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from '@tanstack/react-router';
import { useLingui } from '@lingui/react';
import { Trans, useLingui as useMacroLingui } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import type { TemplateDetail } from '../../schema/templates';
import { ApiRequestError } from '../api/client';
import { showApiError } from '../api/handle-error';
import { useWorkspaces } from '../api/workspaces-cache';
import { EmptyState } from '../ui/EmptyState';
import { Button } from '../ui/Button';
import { toast } from '../ui/toast-store';
import { Page } from '../screens/Page';
import { Templates } from './api';
import { useTemplate } from './load-template';
import { TemplateState } from './TemplateState';
import { templateMessage } from './texts';
import './templates.css';

/**
 * /profile/templates/{templateId}/edit: the owner's template — name, description, cover image
 * (an https address, optional), tags — and its sharing: with workspaces of the owner's (their
 * members are told) and by link (anyone signed in who has it may open and use it).
 */
export default function EditTemplatePage() {
  const { templateId } = useParams({ strict: false }) as { templateId: string };
  const { t } = useMacroLingui();
  const [loaded, reload] = useTemplate(templateId);
  if (loaded.state !== 'ready') {
    return (
      <Page>
        <TemplateState loaded={loaded} />
      </Page>
    );
  }
  if (!loaded.template.mine) {
    return (
      <Page>
        <EmptyState title={t`Only the template's owner can edit it.`} />
      </Page>
    );
  }
  return (
    <Page>
      <TemplateDetailsForm template={loaded.template} onSaved={reload} />
      <TemplateSharing template={loaded.template} onSaved={reload} />
      <p>
        <Link to={pathFor('custom-templates.templates.landing', { templateId })}>
          <Trans>Open the template's page</Trans>
        </Link>{' '}
        ·{' '}
        <Link to={pathFor('custom-templates')}>
          <Trans>Back to my templates</Trans>
        </Link>
      </p>
    </Page>
  );
}

function useSaver() {
  const { i18n } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      toast.show(done, { kind: 'success' });
      return true;
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 422) setError(templateMessage(i18n, err.message));
      else showApiError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}

function TemplateDetailsForm({ template, onSaved }: { template: TemplateDetail; onSaved: () => void }) {
  const { t } = useMacroLingui();
  const [name, setName] = useState(template.name);
  const [description, setDescription] = useState(template.description);
  const [cover, setCover] = useState(template.cover_url ?? '');
  const [tags, setTags] = useState(template.tags.join(', '));
  const saver = useSaver();
  useEffect(() => {
    setName(template.name);
    setDescription(template.description);
    setCover(template.cover_url ?? '');
    setTags(template.tags.join(', '));
  }, [template]);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), description, cover_url: cover.trim() || null, tags: tags.split(',').map((tag) => tag.trim()).filter(Boolean) };
    if (await saver.run(() => Templates.edit(template.id, body), t`Template saved.`)) onSaved();
  };
  return (
    <form className="board-form template-form" onSubmit={onSubmit} noValidate data-testid="edit-template">
      <label>
        <Trans>Name</Trans>
        <input value={name} required maxLength={255} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        <Trans>Description</Trans>
        <textarea value={description} maxLength={2000} rows={3} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <label>
        <Trans>Cover image address (optional)</Trans>
        <input type="url" dir="ltr" value={cover} maxLength={2000} placeholder="https://…" onChange={(e) => setCover(e.target.value)} />
      </label>
      <label>
        <Trans>Tags, separated by commas</Trans>
        <input value={tags} maxLength={400} onChange={(e) => setTags(e.target.value)} />
      </label>
      {saver.error && (
        <p className="field-error" role="alert">
          {saver.error}
        </p>
      )}
      <Button type="submit" variant="primary" disabled={saver.busy}>
        <Trans>Save</Trans>
      </Button>
    </form>
  );
}

function TemplateSharing({ template, onSaved }: { template: TemplateDetail; onSaved: () => void }) {
  const { t } = useMacroLingui();
  const { list } = useWorkspaces();
  const [teams, setTeams] = useState<number[]>(template.shared_team_ids);
  const saver = useSaver();
  useEffect(() => setTeams(template.shared_team_ids), [template]);
  const link = `${location.origin}${pathFor('custom-templates.templates.landing', { templateId: template.id, shared: 'shared' })}`;
  const saveTeams = async () => {
    // Nothing chosen and nothing shared yet: the server says a template needs a workspace.
    const work = teams.length === 0 && template.shared_team_ids.length === 0 ? () => Templates.share(template.id, []) : () => Templates.edit(template.id, { shared_team_ids: teams });
    if (await saver.run(work, t`Sharing saved.`)) onSaved();
  };
  return (
    <section className="board-section" aria-labelledby="template-sharing">
      <h2 id="template-sharing">
        <Trans>Sharing</Trans>
      </h2>
      <p className="hint">
        <Trans>Members of the workspaces you choose can find it in the gallery and are told it was shared.</Trans>
      </p>
      <ul className="member-picks">
        {(list ?? []).map((workspace) => (
          <li key={workspace.id}>
            <label className="inline-field">
              <input type="checkbox" checked={teams.includes(workspace.id)} onChange={(e) => setTeams(e.target.checked ? [...teams, workspace.id] : teams.filter((id) => id !== workspace.id))} />
              {workspace.name}
            </label>
          </li>
        ))}
      </ul>
      {saver.error && (
        <p className="field-error" role="alert">
          {saver.error}
        </p>
      )}
      <Button onClick={() => void saveTeams()} disabled={saver.busy} data-testid="save-template-sharing">
        <Trans>Share with the chosen workspaces</Trans>
      </Button>
      <label className="inline-field">
        <input type="checkbox" checked={template.link_shared} onChange={(e) => void saver.run(() => Templates.edit(template.id, { link_shared: e.target.checked }), t`Sharing saved.`).then((ok) => ok && onSaved())} />
        <Trans>Anyone signed in who has the link can open and use it</Trans>
      </label>
      {template.link_shared && (
        <p className="hint">
          <Trans>Link:</Trans> <code dir="ltr">{link}</code>{' '}
          <Button size="sm" onClick={() => void navigator.clipboard?.writeText(link).then(() => toast.show(t`Link copied.`, { kind: 'success' }))}>
            <Trans>Copy link</Trans>
          </Button>
        </p>
      )}
    </section>
  );
}
