import { Trans, useLingui } from '@lingui/react/macro';
import { useLingui as useLinguiRuntime } from '@lingui/react';
import { formatDate } from '../../../i18n/locale';
import { OnlineOnly } from '../../../connectivity/OnlineOnly';
import { confirm } from '../../../ui/confirm-store';
import { toast } from '../../../ui/toast-store';
import { EmptyState } from '../../../ui/EmptyState';
import { Page } from '../../Page';
import { useAction } from '../../forms';
import { useLoad } from '../../workspace/use-team';
import { AbilityNames } from './abilities';
import { Developer, type AuthorisedApp } from './developer-api';
import './developer.css';

/** /profile/applications: the apps this user allowed, with what they may do; revoking ends their access. */
export default function ApplicationsPage() {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const apps = useLoad(() => Developer.authorisedApps(), []);
  const [revoke] = useAction(async (app: AuthorisedApp) => {
    if (!(await confirm({ message: t`Revoke access for “${app.name}”? It can no longer use your account.`, danger: true, confirmLabel: t`Revoke` }))) return;
    await Developer.revokeApp(app.client_id);
    toast.show(t`Access revoked`, { kind: 'success' });
    apps.reload();
  });
  const when = (iso: string | null) => (iso ? formatDate(iso, i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }) : t`Never used`);

  return (
    <Page>
      {apps.data === null ? (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      ) : apps.data.length === 0 ? (
        <EmptyState title={t`No authorised apps`} text={t`Apps you allow to use your account appear here, and you can revoke them at any time.`} />
      ) : (
        <div className="developer-table-wrap">
          <table className="table" data-testid="authorised-apps">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>App</Trans>
                </th>
                <th scope="col">
                  <Trans>Abilities</Trans>
                </th>
                <th scope="col">
                  <Trans>Allowed</Trans>
                </th>
                <th scope="col">
                  <Trans>Last used</Trans>
                </th>
                <th scope="col">
                  <Trans>Actions</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.data.map((app) => (
                <tr key={app.client_id} data-app={app.name}>
                  <td>{app.name}</td>
                  <td>
                    <AbilityNames abilities={app.abilities} />
                  </td>
                  <td>{when(app.authorised_at)}</td>
                  <td>{when(app.last_used_at)}</td>
                  <td>
                    <OnlineOnly compact>
                      <button type="button" className="link-button danger" onClick={() => void revoke(app)}>
                        <Trans>Revoke</Trans>
                      </button>
                    </OnlineOnly>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
