import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Workspaces, type Workspace } from '../../api/endpoints';
import { workspaces } from '../../api/workspaces-cache';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { toast } from '../../ui/toast-store';
import { Page } from '../Page';
import { Field, SubmitButton, useFormAction } from '../forms';
import { FormError } from '../auth/AuthFrame';
import { PhotoField } from '../profile/PhotoField';
import { useLoad, useTeamId } from './use-team';
import { DeleteWorkspace } from './DeleteWorkspace';
import { WorkspaceNotFound } from './WorkspaceNotFound';
import { useSession } from '../../api/session';
import { Link } from '@tanstack/react-router';
import { pathFor } from '../../../schema/routes';
import { Waiting } from '../../connectivity/Waiting';

export default function TeamSettingsPage() {
  const { t } = useLingui();
  const teamId = useTeamId();
  const session = useSession();
  const loaded = useLoad(() => Workspaces.get(teamId), [teamId]);
  const [team, setTeam] = useState<Workspace | null>(null);
  const [name, setName] = useState('');
  useEffect(() => {
    if (loaded.data) {
      setTeam(loaded.data);
      setName(loaded.data.name);
    }
  }, [loaded.data]);

  const { onSubmit, busy: saving, error, fieldError } = useFormAction(async () => {
    const updated = await Workspaces.update(teamId, { name: name.trim() });
    setTeam(updated);
    toast.show(t`Workspace saved.`, { kind: 'success' });
    await workspaces.refresh().catch(() => {});
  });

  if (loaded.failed && !team && navigator.onLine) return <WorkspaceNotFound />;
  return (
    <Page narrow>
      {!team ? (
        <Waiting />
      ) : (
        <OnlineOnly>
          <form className="form" onSubmit={onSubmit} noValidate>
            <Field label={t`Workspace name`} name="name" required maxLength={255} error={fieldError('name')} value={name} onChange={(e) => setName(e.target.value)} />
            <FormError message={error} />
            <SubmitButton busy={saving}>
              <Trans>Save</Trans>
            </SubmitButton>
          </form>
          <PhotoField
            label={t`Workspace photo`}
            url={team.photo_url ?? null}
            onUpload={async (file) => setTeam(await Workspaces.uploadPhoto(teamId, file))}
            onRemove={async () => {
              await Workspaces.deletePhoto(teamId);
              setTeam({ ...team, photo_url: null });
            }}
          />
          {(team.user_role === 'owner' || team.owner_id === session.user?.id) && (
            <p>
              <Link to={pathFor('team.whitelabel', { teamId })}>
                <Trans>White label: your name, logo, colours, domain and mail server</Trans>
              </Link>
            </p>
          )}
          {(team.user_role === 'owner' || team.owner_id === session.user?.id) && (
            <p>
              <Link to={pathFor('team.sso', { teamId })}>
                <Trans>Single sign-on</Trans>
              </Link>
            </p>
          )}
          {(team.user_role === 'owner' || team.owner_id === session.user?.id) && <DeleteWorkspace team={team} />}
        </OnlineOnly>
      )}
    </Page>
  );
}
