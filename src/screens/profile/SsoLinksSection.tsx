import { useCallback, useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Sso } from '../../api/sso';
import type { SsoLinks } from '../../../schema/sso';
import { toast } from '../../ui/toast-store';
import { useAction } from '../forms';

/**
 * Single sign-on links of the account (issue #26, N1): a workspace's identity provider signs an
 * existing account in only after the account linked that provider identity here, signed in with
 * its password (confirmed again before the provider opens) and second factor.
 */
export function SsoLinksSection() {
  const { t } = useLingui();
  const [data, setData] = useState<SsoLinks | null>(null);
  const load = useCallback(() => Sso.links().then(setData, () => setData({ links: [], providers: [] })), []);
  useEffect(() => void load(), [load]);
  const [link, linking] = useAction(async (teamId: number) => {
    const started = await Sso.link(teamId);
    window.location.assign(started.url);
  });
  const [unlink, unlinking] = useAction(async (id: number) => {
    await Sso.unlink(id);
    toast.show(t`The identity provider is no longer linked.`, { kind: 'success' });
    await load();
  });
  if (!data || (data.links.length === 0 && data.providers.length === 0)) return null;
  const unlinkedProviders = data.providers.filter((p) => !p.linked);
  return (
    <section className="form" aria-labelledby="sso-links-heading" data-testid="sso-links">
      <h2 id="sso-links-heading">
        <Trans>Single sign-on</Trans>
      </h2>
      <p className="muted">
        <Trans>A workspace’s identity provider signs you in only after you link it here. You confirm your password first.</Trans>
      </p>
      {data.links.length > 0 && (
        <ul>
          {data.links.map((l) => {
            const issuer = l.issuer;
            return (
              <li key={l.id}>
                <Trans>Linked: {issuer}</Trans>{' '}
                <button type="button" className="link-button" disabled={unlinking} onClick={() => void unlink(l.id)}>
                  <Trans>Unlink</Trans>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {unlinkedProviders.length > 0 && (
        <ul>
          {unlinkedProviders.map((p) => {
            const team = p.team_name;
            return (
              <li key={p.team_id}>
                <button type="button" className="ui-button ui-button--secondary ui-button--md" disabled={linking} onClick={() => void link(p.team_id)}>
                  <Trans>Link the identity provider of {team}</Trans>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
