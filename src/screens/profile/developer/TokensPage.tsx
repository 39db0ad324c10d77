import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLingui as useLinguiRuntime } from '@lingui/react';
import { pathFor } from '../../../../schema/routes';
import { API_ABILITIES, DEFAULT_API_ABILITIES, type ApiAbility } from '../../../../schema/api-abilities';
import { formatDate } from '../../../i18n/locale';
import { OnlineOnly } from '../../../connectivity/OnlineOnly';
import { confirm } from '../../../ui/confirm-store';
import { toast } from '../../../ui/toast-store';
import { EmptyState } from '../../../ui/EmptyState';
import { Page } from '../../Page';
import { Field, SubmitButton, useAction, useFormAction } from '../../forms';
import { FormError } from '../../auth/AuthFrame';
import { useLoad } from '../../workspace/use-team';
import { ABILITY_LABELS, AbilityNames } from './abilities';
import { Developer, type PersonalToken } from './developer-api';
import { SecretOnce } from './SecretOnce';
import './developer.css';

const EXPIRY_DAYS = [7, 30, 90, 365] as const;

/** /profile/developer/tokens: create a personal access token (shown once), list and revoke them. */
export default function TokensPage() {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const tokens = useLoad(() => Developer.tokens(), []);
  const [name, setName] = useState('');
  const [abilities, setAbilities] = useState<ApiAbility[]>([...DEFAULT_API_ABILITIES]);
  const [expiry, setExpiry] = useState<string>('90');
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);

  const form = useFormAction(async () => {
    const expiresAt = expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * 24 * 60 * 60 * 1000).toISOString();
    const token = await Developer.createToken({ name: name.trim(), abilities, expires_at: expiresAt });
    setCreated({ name: token.name, token: token.token });
    setName('');
    tokens.reload();
  });
  const [revoke] = useAction(async (token: PersonalToken) => {
    if (!(await confirm({ message: t`Revoke the token “${token.name}”? Anything using it stops working.`, danger: true, confirmLabel: t`Revoke` }))) return;
    await Developer.revokeToken(token.id);
    toast.show(t`Token revoked`, { kind: 'success' });
    tokens.reload();
  });
  const toggle = (ability: ApiAbility, on: boolean) => setAbilities((list) => (on ? [...list, ability] : list.filter((a) => a !== ability)));
  const when = (iso: string | null, never: string) => (iso ? formatDate(iso, i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }) : never);

  return (
    <Page>
      <p>
        <Trans>
          A personal access token lets a script use the API as you. Send it as <code>Authorization: Bearer …</code>.
        </Trans>{' '}
        <a href="/api/docs" target="_blank" rel="noopener">
          <Trans>API documentation</Trans>
        </a>
      </p>
      {created && <SecretOnce label={t`New token “${created.name}”`} value={created.token} testId="new-token" />}
      <OnlineOnly>
        <form className="developer-form" onSubmit={form.onSubmit} noValidate aria-labelledby="new-token-heading">
          <h2 id="new-token-heading">
            <Trans>New token</Trans>
          </h2>
          <Field label={t`Name`} hint={t`What the token is for, e.g. “CI export”.`} name="name" value={name} maxLength={255} required onChange={(e) => setName(e.target.value)} />
          <fieldset>
            <legend>
              <Trans>Abilities</Trans>
            </legend>
            {API_ABILITIES.map((ability) => (
              <label key={ability}>
                <input type="checkbox" name="abilities" value={ability} checked={abilities.includes(ability)} onChange={(e) => toggle(ability, e.target.checked)} />
                <span>
                  {i18n._(ABILITY_LABELS[ability].name)} <span className="ability-text">— {i18n._(ABILITY_LABELS[ability].text)}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="token-expiry">
              <Trans>Expires</Trans>
            </label>
            <select id="token-expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
              {EXPIRY_DAYS.map((days) => (
                <option key={days} value={String(days)}>
                  {t`In ${days} days`}
                </option>
              ))}
              <option value="never">{t`Never`}</option>
            </select>
          </div>
          <FormError message={form.error} />
          <SubmitButton busy={form.busy}>
            <Trans>Create token</Trans>
          </SubmitButton>
        </form>
      </OnlineOnly>

      <h2>
        <Trans>Your tokens</Trans>
      </h2>
      {tokens.data === null ? (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      ) : tokens.data.length === 0 ? (
        <EmptyState headingLevel={3} title={t`No tokens yet`} text={t`Tokens you create are listed here, with when they were last used.`} />
      ) : (
        <div className="developer-table-wrap">
          <table className="table" data-testid="tokens">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Name</Trans>
                </th>
                <th scope="col">
                  <Trans>Abilities</Trans>
                </th>
                <th scope="col">
                  <Trans>Last used</Trans>
                </th>
                <th scope="col">
                  <Trans>Expires</Trans>
                </th>
                <th scope="col">
                  <Trans>Actions</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <tr key={token.id} data-token={token.name}>
                  <td>{token.name}</td>
                  <td>
                    <AbilityNames abilities={token.abilities} />
                  </td>
                  <td>{when(token.last_used_at, t`Never used`)}</td>
                  <td>{when(token.expires_at, t`Never`)}</td>
                  <td>
                    <OnlineOnly compact>
                      <button type="button" className="link-button danger" onClick={() => void revoke(token)}>
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
      <p>
        <Link to={pathFor('profile.developer')}>
          <Trans>Back to Developer</Trans>
        </Link>
      </p>
    </Page>
  );
}
