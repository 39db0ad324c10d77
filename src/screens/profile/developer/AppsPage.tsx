import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../../schema/routes';
import { OnlineOnly } from '../../../connectivity/OnlineOnly';
import { confirm } from '../../../ui/confirm-store';
import { toast } from '../../../ui/toast-store';
import { EmptyState } from '../../../ui/EmptyState';
import { Page } from '../../Page';
import { Field, SubmitButton, useAction, useFormAction } from '../../forms';
import { FormError } from '../../auth/AuthFrame';
import { useLoad } from '../../workspace/use-team';
import { Developer, type OAuthApp } from './developer-api';
import { SecretOnce } from './SecretOnce';
import './developer.css';

const urisOf = (text: string) => text.split(/\s+/).map((uri) => uri.trim()).filter(Boolean);

/** Name and redirect URIs of an app: the register form and each app's edit form. */
function AppForm({ app, onSaved, submitLabel }: { app?: OAuthApp; onSaved: (saved: OAuthApp & { client_secret?: string }) => void; submitLabel: string }) {
  const { t } = useLingui();
  const [name, setName] = useState(app?.name ?? '');
  const [uris, setUris] = useState(app?.redirect_uris.join('\n') ?? '');
  const form = useFormAction(async () => {
    const body = { name: name.trim(), redirect_uris: urisOf(uris) };
    onSaved(app ? await Developer.updateApp(app.id, body) : await Developer.registerApp(body));
    if (!app) {
      setName('');
      setUris('');
    }
  });
  const urisId = `redirect-uris-${app?.id ?? 'new'}`;
  return (
    <form className="developer-form" onSubmit={form.onSubmit} noValidate>
      <Field label={t`App name`} hint={t`People see it when they allow the app.`} value={name} maxLength={255} required onChange={(e) => setName(e.target.value)} />
      <div className="field">
        <label htmlFor={urisId}>
          <Trans>Redirect URIs</Trans>
        </label>
        <textarea id={urisId} rows={3} value={uris} aria-describedby={`${urisId}-hint`} onChange={(e) => setUris(e.target.value)} />
        <small id={`${urisId}-hint`} className="muted">
          <Trans>One per line; https, or http to localhost. The app must send one of them exactly.</Trans>
        </small>
      </div>
      <FormError message={form.error} />
      <SubmitButton busy={form.busy}>{submitLabel}</SubmitButton>
    </form>
  );
}

/** /profile/developer/apps: register OAuth apps (client secret shown once), edit, new secret, delete. */
export default function AppsPage() {
  const { t } = useLingui();
  const apps = useLoad(() => Developer.apps(), []);
  const [secret, setSecret] = useState<{ name: string; clientId: string; secret: string } | null>(null);
  const [editing, setEditing] = useState<number | null>(null);

  const [rotate] = useAction(async (app: OAuthApp) => {
    if (!(await confirm({ message: t`Make a new client secret for “${app.name}”? The current one stops working.`, danger: true }))) return;
    const rotated = await Developer.newSecret(app.id);
    setSecret({ name: rotated.name, clientId: rotated.client_id, secret: rotated.client_secret });
  });
  const [remove] = useAction(async (app: OAuthApp) => {
    if (!(await confirm({ message: t`Delete “${app.name}”? Everyone who allowed it loses the connection.`, danger: true, confirmLabel: t`Delete` }))) return;
    await Developer.deleteApp(app.id);
    toast.show(t`App deleted`, { kind: 'success' });
    apps.reload();
  });

  return (
    <Page>
      <p>
        <Trans>An OAuth app asks people for access to their Cairn data with the authorisation-code flow and PKCE.</Trans>{' '}
        <a href="/api/docs" target="_blank" rel="noopener">
          <Trans>API documentation</Trans>
        </a>
      </p>
      {secret && (
        <div data-testid="app-credentials">
          <p>
            <Trans>Client id of “{secret.name}”:</Trans> <code data-testid="client-id">{secret.clientId}</code>
          </p>
          <SecretOnce label={t`Client secret`} value={secret.secret} testId="client-secret" />
        </div>
      )}
      <OnlineOnly>
        <h2>
          <Trans>Register an app</Trans>
        </h2>
        <AppForm
          submitLabel={t`Register app`}
          onSaved={(saved) => {
            if (saved.client_secret) setSecret({ name: saved.name, clientId: saved.client_id, secret: saved.client_secret });
            apps.reload();
          }}
        />
      </OnlineOnly>

      <h2>
        <Trans>Your apps</Trans>
      </h2>
      {apps.data === null ? (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      ) : apps.data.length === 0 ? (
        <EmptyState headingLevel={3} title={t`No apps yet`} text={t`Apps you register are listed here with their client ids.`} />
      ) : (
        <div className="developer-table-wrap">
          <table className="table" data-testid="apps">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Name</Trans>
                </th>
                <th scope="col">
                  <Trans>Client id</Trans>
                </th>
                <th scope="col">
                  <Trans>Redirect URIs</Trans>
                </th>
                <th scope="col">
                  <Trans>Actions</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.data.map((app) => (
                <tr key={app.id} data-app={app.name}>
                  <td>{app.name}</td>
                  <td>
                    <code>{app.client_id}</code>
                  </td>
                  <td>
                    {editing === app.id ? (
                      <AppForm
                        app={app}
                        submitLabel={t`Save`}
                        onSaved={() => {
                          setEditing(null);
                          apps.reload();
                        }}
                      />
                    ) : (
                      app.redirect_uris.map((uri) => (
                        <div key={uri}>
                          <code>{uri}</code>
                        </div>
                      ))
                    )}
                  </td>
                  <td>
                    <OnlineOnly compact>
                      <div className="row-actions">
                        <button type="button" className="link-button" onClick={() => setEditing(editing === app.id ? null : app.id)}>
                          {editing === app.id ? t`Cancel` : t`Edit`}
                        </button>
                        <button type="button" className="link-button" onClick={() => void rotate(app)}>
                          <Trans>New secret</Trans>
                        </button>
                        <button type="button" className="link-button danger" onClick={() => void remove(app)}>
                          <Trans>Delete</Trans>
                        </button>
                      </div>
                    </OnlineOnly>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <Link to={pathFor('profile.developer')}>
          <Trans>Back to Developer</Trans>
        </Link>
      </p>
    </Page>
  );
}
