import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { nanoid } from 'nanoid';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../../../schema/routes';
import type { HookEventType } from '../../../../../schema/hooks';
import { Workspaces } from '../../../../api/endpoints';
import { OnlineOnly } from '../../../../connectivity/OnlineOnly';
import { Waiting } from '../../../../connectivity/Waiting';
import { EmptyState } from '../../../../ui/EmptyState';
import { Page } from '../../../Page';
import { Field, SubmitButton, useFormAction } from '../../../forms';
import { FormError } from '../../../auth/AuthFrame';
import { useLoad } from '../../../workspace/use-team';
import { SecretOnce } from '../SecretOnce';
import { HookEvents } from './HookEvents';
import { Hooks } from './hooks-api';
import '../developer.css';
import './hooks.css';

/**
 * /profile/developer/hooks: the user's webhooks across workspaces, and a form to add one
 * (workspace, URL, events). The new hook's signing secret is shown here once, with a copy button.
 */
export default function HooksPage() {
  const { t } = useLingui();
  const hooks = useLoad(() => Hooks.mine(), []);
  const workspaces = useLoad(() => Workspaces.mine(), []);
  const [teamId, setTeamId] = useState<string>('');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<HookEventType[]>(['item.created', 'item.updated']);
  const [created, setCreated] = useState<{ id: string; url: string; secret: string } | null>(null);

  const createdUrl = created?.url ?? null;
  const chosenTeam = teamId || String(workspaces.data?.[0]?.id ?? '');
  const form = useFormAction(async () => {
    const hook = await Hooks.save(Number(chosenTeam), nanoid(), { url: url.trim(), events });
    setCreated({ id: hook.id, url: hook.url, secret: hook.secret ?? '' });
    setUrl('');
    hooks.reload();
  });

  return (
    <Page>
      <p>
        <Trans>A webhook sends a signed POST request to your URL when items or comments change in a workspace. Check the X-Cairn-Signature header with the secret to know the request came from Cairn.</Trans>{' '}
        <a href="/api/docs" target="_blank" rel="noopener">
          <Trans>API documentation</Trans>
        </a>
      </p>
      {created && createdUrl !== null && (
        <div data-testid="new-hook">
          <SecretOnce label={t`Signing secret of ${createdUrl}`} value={created.secret} testId="hook-secret" />
          <p>
            <Link to={pathFor('profile.developer.hook', { hookId: created.id })}>
              <Trans>Open the new webhook</Trans>
            </Link>
          </p>
        </div>
      )}
      {/* The form comes once the workspaces are known: a hook made before that went to no
          workspace and was refused (seen as a missing secret in a loaded CI run). */}
      {workspaces.data === null ? (
        <Waiting />
      ) : (
        <OnlineOnly>
          <form className="developer-form" onSubmit={form.onSubmit} noValidate aria-labelledby="new-hook-heading">
            <h2 id="new-hook-heading">
              <Trans>New webhook</Trans>
            </h2>
            <div className="field">
              <label htmlFor="hook-workspace">
                <Trans>Workspace</Trans>
              </label>
              <select id="hook-workspace" value={chosenTeam} onChange={(e) => setTeamId(e.target.value)} required>
                {(workspaces.data ?? []).map((workspace) => (
                  <option key={workspace.id} value={String(workspace.id)}>
                    {workspace.name}
                  </option>
                ))}
              </select>
            </div>
            <Field label={t`Payload URL`} hint={t`Where the POST requests go, e.g. https://example.com/cairn-hook`} name="url" type="url" dir="ltr" value={url} maxLength={2000} required onChange={(e) => setUrl(e.target.value)} />
            <HookEvents value={events} onChange={setEvents} />
            <FormError message={form.error} />
            <SubmitButton busy={form.busy}>
              <Trans>Create webhook</Trans>
            </SubmitButton>
          </form>
        </OnlineOnly>
      )}

      <h2>
        <Trans>Your webhooks</Trans>
      </h2>
      {hooks.data === null ? (
        <Waiting />
      ) : hooks.data.length === 0 ? (
        <EmptyState headingLevel={3} title={t`No webhooks yet`} text={t`Webhooks you create in any workspace are listed here.`} />
      ) : (
        <div className="developer-table-wrap">
          <table className="table" data-testid="hooks">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>URL</Trans>
                </th>
                <th scope="col">
                  <Trans>Workspace</Trans>
                </th>
                <th scope="col">
                  <Trans>Events</Trans>
                </th>
                <th scope="col">
                  <Trans>State</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {hooks.data.map((hook) => (
                <tr key={hook.id} data-hook={hook.url}>
                  <td>
                    <Link className="hook-url" dir="ltr" to={pathFor('profile.developer.hook', { hookId: hook.id })}>
                      {hook.url}
                    </Link>
                  </td>
                  <td>{hook.team_name}</td>
                  <td dir="ltr">{hook.events.join(', ')}</td>
                  <td className={hook.active ? undefined : 'hook-state--off'}>{hook.active ? t`Active` : t`Switched off`}</td>
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
