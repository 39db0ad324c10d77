import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { useSession } from '../../api/session';
import { useWorkspaces } from '../../api/workspaces-cache';
import { Page } from '../Page';
import '../workspace/workspace.css';

/** onboarding (/onboarding): the first steps for a new account, each a link to where it is done. */
export default function OnboardingPage() {
  const { status } = useSession();
  const { list } = useWorkspaces();
  const first = list?.[0];
  const mod = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';
  return (
    <Page narrow>
      <div className="later-page" data-testid="onboarding">
        <p>
          <Trans>Cairn keeps your team's work on boards: each row is an item, each column something you track about it. It works offline and syncs when you are back.</Trans>
        </p>
        <ol>
          <li>
            {first ? (
              <Link to={pathFor('create-board', { teamId: first.id })}>
                <Trans>Create a board in {first.name}</Trans>
              </Link>
            ) : (
              <Link to={status === 'signedIn' ? pathFor('create-workspace') : pathFor('register')}>
                <Trans>Create your workspace</Trans>
              </Link>
            )}
          </li>
          <li>
            {first ? (
              <Link to={pathFor('team.members', { teamId: first.id })}>
                <Trans>Invite your team</Trans>
              </Link>
            ) : (
              <Trans>Invite your team</Trans>
            )}
          </li>
          <li>
            <Trans>Press {mod}+K anywhere to jump to a board or item, and ? to see every shortcut.</Trans>
          </li>
        </ol>
        <Link to={status === 'signedIn' ? pathFor('home') : pathFor('login')} className="ui-button ui-button--primary ui-button--md">
          <Trans>Get started</Trans>
        </Link>
      </div>
    </Page>
  );
}
