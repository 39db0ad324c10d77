import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { workspaces } from '../../api/workspaces-cache';
import type { Workspace } from '../../api/endpoints';
import { whiteLabelLink } from '../../navigation/whitelabel';
import { EmptyState } from '../../ui/EmptyState';
import { pathFor } from '../../../schema/routes';
import { Page } from '../Page';

/**
 * forward.whitelabel (`/fwd/whitelabel`, shell.md §2; decision 0265): sends the user on to the
 * white-labelled address of their workspace. With one such workspace the browser goes there at
 * once (its home); with several it lists them; with none it says so. The session does not travel:
 * the white-labelled domain is another origin, where the user signs in (its sign-in page carries
 * the workspace's brand).
 */
export default function ForwardWhitelabelPage() {
  const { t } = useLingui();
  const [list, setList] = useState<Workspace[] | null>(workspaces.get());
  useEffect(() => {
    if (!list) void workspaces.load().then(setList, () => setList([]));
  }, [list]);
  const linked = (list ?? []).map((w) => ({ workspace: w, link: whiteLabelLink(w) })).filter((x): x is { workspace: Workspace; link: string } => !!x.link && new URL(x.link).origin !== window.location.origin);
  const only = linked.length === 1 ? linked[0]!.link : null;
  useEffect(() => {
    if (only) window.location.replace(`${only}/home`);
  }, [only]);

  if (!list || only) {
    return (
      <Page narrow>
        <p role="status">{only ? t`Opening your workspace at ${only}…` : t`Loading…`}</p>
      </Page>
    );
  }
  if (linked.length === 0) {
    return (
      <Page narrow>
        <EmptyState title={t`None of your workspaces has its own domain yet.`} text={t`The owner of a workspace can set one up under White label.`} action={<Link to={pathFor('home')}>{t`Go to your workspaces`}</Link>} />
      </Page>
    );
  }
  return (
    <Page narrow>
      <p>
        <Trans>Your workspaces with their own address:</Trans>
      </p>
      <ul>
        {linked.map(({ workspace, link }) => (
          <li key={workspace.id}>
            <a href={`${link}/home`}>
              {workspace.name} — {link}
            </a>
          </li>
        ))}
      </ul>
    </Page>
  );
}
