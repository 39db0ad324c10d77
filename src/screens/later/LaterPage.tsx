import { Link, useMatches, useParams } from '@tanstack/react-router';
import { useLingui } from '@lingui/react';
import { pathFor, type RouteDef } from '../../../schema/routes';
import { useSession } from '../../api/session';
import { useWorkspaces } from '../../api/workspaces-cache';
import { Trans } from '@lingui/react/macro';
import { Page } from '../Page';
import { LATER_FEATURES, type LaterTarget } from './later-features';
import '../workspace/workspace.css';

/** A route whose feature comes with a later issue: what will be here, and a useful way on. */
export default function LaterPage() {
  const { i18n } = useLingui();
  const matches = useMatches();
  const route = matches[matches.length - 1]?.staticData?.route as RouteDef | undefined;
  const params = useParams({ strict: false }) as { teamId?: number };
  const { status } = useSession();
  const { list } = useWorkspaces();
  const feature = route ? LATER_FEATURES[route.name] : undefined;
  if (!feature) return <Page />;
  const firstTeam = params.teamId ?? list?.[0]?.id;
  const target: LaterTarget = status !== 'signedIn' && feature.target !== 'login' ? 'login' : feature.target;
  const href = (() => {
    switch (target) {
      case 'workspace':
        return firstTeam ? pathFor('team.boards', { teamId: firstTeam }) : pathFor('home');
      case 'create-board':
        return firstTeam ? pathFor('create-board', { teamId: firstTeam }) : pathFor('home');
      case 'members':
        return firstTeam ? pathFor('team.members', { teamId: firstTeam }) : pathFor('home');
      case 'profile':
        return pathFor('profile');
      case 'security':
        return pathFor('profile.security');
      case 'login':
        return pathFor('login');
      default:
        return pathFor('home');
    }
  })();
  return (
    <Page narrow>
      <div className="later-page ui-empty-state" data-testid="later-page">
        <h2 className="ui-empty-state__title">
          <Trans>Coming in a later release</Trans>
        </h2>
        <p className="ui-empty-state__text">{i18n._(feature.text)}</p>
        <ul>
          {feature.points.map((point) => (
            <li key={point.id}>{i18n._(point)}</li>
          ))}
        </ul>
        <div className="ui-empty-state__action">
          <Link to={href} className="ui-button ui-button--primary ui-button--md" data-testid="later-action">
            {i18n._(feature.action)}
          </Link>
        </div>
      </div>
    </Page>
  );
}
