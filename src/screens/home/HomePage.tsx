import { Link } from '@tanstack/react-router';
import { Plural, Trans } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { useWorkspaces } from '../../api/workspaces-cache';
import { useSession } from '../../api/session';
import { Page } from '../Page';
import { RoleLabel } from '../workspace/roles';
import { Waiting } from '../../connectivity/Waiting';

/** The user's workspaces (GET /api/me/workspaces); also the profile.workspaces screen. */
export default function HomePage() {
  const { list } = useWorkspaces();
  const { user } = useSession();
  return (
    <Page
      actions={
        <Link to={pathFor('create-workspace')} className="ui-button ui-button--primary ui-button--md" data-testid="new-workspace">
          <Trans>New workspace</Trans>
        </Link>
      }
    >
      {user && !user.email_verified && (
        <p className="notice" role="note">
          <Trans>Please verify your email address.</Trans>{' '}
          <Link to={pathFor('verify-email')}>
            <Trans>Why?</Trans>
          </Link>
        </p>
      )}
      {list === null ? (
        <Waiting />
      ) : list.length === 0 ? (
        <div className="empty-state" data-testid="empty-state">
          <p>
            <Trans>You are not in any workspace yet.</Trans>
          </p>
          <Link to={pathFor('create-workspace')} className="ui-button ui-button--primary ui-button--md">
            <Trans>Create your first workspace</Trans>
          </Link>
        </div>
      ) : (
        <ul className="card-list" data-testid="workspace-list">
          {list.map((workspace) => (
            <li key={workspace.id} className="card">
              <Link to={pathFor('team.boards', { teamId: workspace.id })} className="card-title">
                {workspace.name}
              </Link>
              <span className="muted">
                <RoleLabel role={workspace.user_role ?? (workspace.owner_id === user?.id ? 'owner' : 'full-member')} />
                {typeof workspace.member_count === 'number' && (
                  <>
                    {' · '}
                    <Plural value={workspace.member_count} one="# member" other="# members" />
                  </>
                )}
              </span>
              <span className="card-links">
                <Link to={pathFor('team.members', { teamId: workspace.id })}>
                  <Trans>Members</Trans>
                </Link>
                <Link to={pathFor('team.settings', { teamId: workspace.id })}>
                  <Trans>Settings</Trans>
                </Link>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
