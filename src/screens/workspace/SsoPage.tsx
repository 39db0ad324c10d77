import { useEffect, useState, type FormEvent } from 'react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { ApiRequestError, OFFLINE_STATUS } from '../../api/client';
import { Sso, type DiscoveryResult, type SsoSettings } from '../../api/sso';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { useOnline } from '../../connectivity/use-connectivity';
import { Waiting } from '../../connectivity/Waiting';
import { toast } from '../../ui/toast-store';
import { confirmStore } from '../../ui/confirm-store';
import { Page } from '../Page';
import { Field, SubmitButton, useAction } from '../forms';
import { plainProblem } from '../field-errors';
import { classify } from '../field-problems';
import { FormError } from '../auth/AuthFrame';
import { ssoErrorMessages } from '../auth/sso-errors';
import { useTeamId } from './use-team';

/** The server's field problems of this screen (server/sso/settings.ts), in the user's language. */
const PROBLEMS: Record<string, MessageDescriptor> = {
  'is required': msg`Please fill this in.`,
  'must be a URL': msg`Enter a full web address starting with https://.`,
  'must be an https URL': msg`Enter a full web address starting with https://.`,
  'must be a domain such as example.com': msg`Enter domains such as example.com.`,
  'name at least one e-mail domain': msg`Name at least one e-mail domain.`,
  'must be an X.509 certificate (PEM)': msg`Paste the provider’s signing certificate (PEM, starting with -----BEGIN CERTIFICATE-----).`,
};

type FieldProblems = Record<string, string>;

/** `oidc.issuer: must be an https URL` → {'oidc.issuer': 'Enter a full web address…'}; the rest in `message`. */
function problemsOf(error: unknown, translate: (d: MessageDescriptor) => string): { fields: FieldProblems; message: string | null } | null {
  if (!(error instanceof ApiRequestError) || error.status !== 422) return null;
  const known = error.type ? ssoErrorMessages[error.type] : undefined;
  if (known) return { fields: {}, message: translate(known) };
  const list = Array.isArray(error.body?.data) ? (error.body!.data as unknown[]).filter((x): x is string => typeof x === 'string') : [];
  const fields: FieldProblems = {};
  const rest: string[] = [];
  for (const item of list) {
    const colon = item.indexOf(': ');
    const path = colon > 0 ? item.slice(0, colon).replace(/\.\d+$/, '') : '';
    const text = colon > 0 ? item.slice(colon + 2) : item;
    const words = PROBLEMS[text] ? translate(PROBLEMS[text]!) : plainProblem(classify(text));
    if (path && !fields[path]) fields[path] = words;
    else rest.push(words);
  }
  return { fields, message: rest.length ? rest.join(' ') : list.length ? null : translate(msg`Something Went Wrong`) };
}

/**
 * team.sso (workspace.md §6: the owner controls single sign-on). OpenID Connect signs members in
 * through the workspace's identity provider; SAML settings are stored and checked but not active.
 */
export default function SsoPage() {
  const { t, i18n } = useLingui();
  const teamId = useTeamId();
  const [settings, setSettings] = useState<SsoSettings | null>(null);
  const [refused, setRefused] = useState(false);
  // Opened offline (its code from the service worker): it says it needs the server (Waiting) and
  // loads by itself when the network returns (issue #30 part 5), as the members screen does.
  const online = useOnline();
  const [failedOffline, setFailedOffline] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    Sso.get(teamId)
      .then((s) => live && setSettings(s))
      .catch((error) => {
        if (!live || !(error instanceof ApiRequestError)) return;
        if (error.status === 403 || error.status === 404) setRefused(true);
        else if (error.status === OFFLINE_STATUS) setFailedOffline(true);
      });
    return () => {
      live = false;
    };
  }, [teamId, attempt]);
  useEffect(() => {
    if (!online || !failedOffline) return;
    setFailedOffline(false);
    setAttempt((n) => n + 1);
  }, [online, failedOffline]);

  if (refused) {
    return (
      <Page narrow>
        <p role="alert">
          <Trans>Only the workspace owner can see and change single sign-on.</Trans>
        </p>
      </Page>
    );
  }
  return (
    <Page narrow>
      <p>
        <Trans>
          Single sign-on lets the people of your organisation sign in to this workspace with your identity provider (for example Okta, Microsoft Entra ID, Google Workspace, Keycloak or Authentik) instead of a
          Cairn password. It needs an application registered at that provider: enter its details here.
        </Trans>
      </p>
      {!settings ? (
        <Waiting />
      ) : (
        <OnlineOnly>
          <ProviderDetails settings={settings} />
          <OidcForm teamId={teamId} settings={settings} onSaved={setSettings} translate={(d) => i18n._(d)} />
          <DomainProof teamId={teamId} settings={settings} onSaved={setSettings} />
          <SamlForm teamId={teamId} settings={settings} onSaved={setSettings} translate={(d) => i18n._(d)} />
          {settings.updated_at && (
            <RemoveAll
              onRemove={async () => {
                if (!(await confirmStore.confirm({ message: t`Remove all single sign-on settings of this workspace? Members then sign in with their passwords.` }))) return;
                setSettings(await Sso.remove(teamId));
                toast.show(t`Single sign-on settings removed.`, { kind: 'success' });
              }}
            />
          )}
        </OnlineOnly>
      )}
    </Page>
  );
}

function ProviderDetails({ settings }: { settings: SsoSettings }) {
  return (
    <section aria-labelledby="sso-provider-heading" className="form">
      <h2 id="sso-provider-heading">
        <Trans>For your identity provider</Trans>
      </h2>
      <p>
        <Trans>Register Cairn at your provider as a web application (authorisation code flow) with this redirect URI:</Trans>
      </p>
      <p>
        <code data-testid="sso-redirect-uri">{settings.redirect_uri}</code>
      </p>
      {settings.oidc?.enabled && (
        <>
          <p>
            <Trans>Members can sign in at the single sign-on page with their work e-mail, or with this link:</Trans>
          </p>
          <p>
            <a href={settings.sign_in_url}>{settings.sign_in_url}</a>
          </p>
        </>
      )}
    </section>
  );
}

function OidcForm({ teamId, settings, onSaved, translate }: { teamId: number; settings: SsoSettings; onSaved: (s: SsoSettings) => void; translate: (d: MessageDescriptor) => string }) {
  const { t } = useLingui();
  const o = settings.oidc;
  const [issuer, setIssuer] = useState(o?.issuer ?? '');
  const [clientId, setClientId] = useState(o?.client_id ?? '');
  const [secret, setSecret] = useState('');
  const [domains, setDomains] = useState((o?.allowed_domains ?? []).join(', '));
  const [enabled, setEnabled] = useState(o?.enabled ?? true);
  const [enforce, setEnforce] = useState(o?.enforce ?? false);
  const [problems, setProblems] = useState<{ fields: FieldProblems; message: string | null }>({ fields: {}, message: null });
  const [found, setFound] = useState<DiscoveryResult | null>(null);
  const [testError, setTestError] = useState<{ text: string; detail: string | null } | null>(null);

  const [save, saving] = useAction(
    async () => {
      setProblems({ fields: {}, message: null });
      const saved = await Sso.save(teamId, {
        oidc: { issuer: issuer.trim(), client_id: clientId.trim(), ...(secret ? { client_secret: secret } : {}), enabled, enforce: enabled && enforce, allowed_domains: domains.split(/[\s,;]+/).filter(Boolean) },
      });
      setSecret('');
      onSaved(saved);
      toast.show(t`Single sign-on settings saved.`, { kind: 'success' });
    },
    {
      onError: (error) => {
        const found = problemsOf(error, translate);
        if (found) setProblems(found);
        return !!found;
      },
    },
  );
  const [test, testing] = useAction(
    async () => {
      setFound(null);
      setTestError(null);
      setFound(await Sso.test(teamId, issuer.trim() || undefined));
    },
    {
      onError: (error) => {
        if (!(error instanceof ApiRequestError) || error.status !== 422) return false;
        const detail = (error.body?.data as { cause?: string } | undefined)?.cause ?? null;
        const words = problemsOf(error, translate);
        setTestError({ text: words?.message ?? Object.values(words?.fields ?? {})[0] ?? '', detail });
        return true;
      },
    },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };
  const f = problems.fields;
  const foundIssuer = found?.issuer ?? '';
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-labelledby="sso-oidc-heading">
      <h2 id="sso-oidc-heading">
        <Trans>OpenID Connect</Trans>
      </h2>
      <Field label={t`Issuer URL`} name="issuer" type="url" required hint={t`The address your provider names as its issuer, such as https://login.example.com/realms/acme.`} error={f['oidc.issuer']} value={issuer} onChange={(e) => setIssuer(e.target.value)} />
      <Field label={t`Client ID`} name="client_id" required error={f['oidc.client_id']} value={clientId} onChange={(e) => setClientId(e.target.value)} />
      <Field
        label={t`Client secret`}
        name="client_secret"
        type="password"
        autoComplete="new-password"
        hint={o?.has_client_secret ? t`A secret is stored (encrypted) and never shown. Leave this empty to keep it.` : t`Stored encrypted; it is never shown again.`}
        error={f['oidc.client_secret']}
        value={secret}
        onChange={(e) => setSecret(e.target.value)}
      />
      <Field
        label={t`Allowed e-mail domains`}
        name="allowed_domains"
        required
        hint={t`Separated by commas. Each domain works once its DNS record below proves it is yours. People with a verified address of these domains can sign in; new ones join the workspace as full members.`}
        error={f['oidc.allowed_domains']}
        value={domains}
        onChange={(e) => setDomains(e.target.value)}
      />
      <div className="field">
        <label>
          <input type="checkbox" name="enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> <Trans>Allow signing in with this provider</Trans>
        </label>
      </div>
      <div className="field">
        <label>
          <input type="checkbox" name="enforce" checked={enabled && enforce} disabled={!enabled} onChange={(e) => setEnforce(e.target.checked)} />{' '}
          <Trans>Require single sign-on: members with an address of these domains cannot sign in with a password</Trans>
        </label>
        <small className="muted">
          <Trans>You, the owner, can always sign in with your password, in case the provider fails.</Trans>
        </small>
      </div>
      <FormError message={problems.message} />
      <div className="form-actions">
        <SubmitButton busy={saving}>
          <Trans>Save</Trans>
        </SubmitButton>{' '}
        <button type="button" className="ui-button ui-button--secondary ui-button--md" disabled={testing || !issuer.trim()} aria-busy={testing} onClick={() => void test()}>
          <Trans>Test connection</Trans>
        </button>
      </div>
      {found && (
        <div role="status" data-testid="sso-test-result">
          <p>
            <Trans>The provider answered. It names itself {foundIssuer}.</Trans>
          </p>
          <dl>
            <dt>
              <Trans>Sign-in page</Trans>
            </dt>
            <dd>{found.authorization_endpoint ?? '—'}</dd>
            <dt>
              <Trans>Token endpoint</Trans>
            </dt>
            <dd>{found.token_endpoint ?? '—'}</dd>
            <dt>
              <Trans>Signing keys</Trans>
            </dt>
            <dd>{found.jwks_uri ?? '—'}</dd>
            <dt>
              <Trans>PKCE (S256)</Trans>
            </dt>
            <dd>{found.pkce_s256 ? <Trans>Supported</Trans> : <Trans>Not announced</Trans>}</dd>
          </dl>
          <p className="muted">
            <Trans>The client ID and secret are checked only when someone signs in.</Trans>
          </p>
        </div>
      )}
      {testError && (
        <div role="alert" className="form-error" data-testid="sso-test-error">
          <p>{testError.text}</p>
          {testError.detail && <p>{testError.detail}</p>}
        </div>
      )}
    </form>
  );
}

/** Each allowed domain signs people in (or is required) only after its DNS TXT record proves the workspace owns it (issue #26, N1). */
function DomainProof({ teamId, settings, onSaved }: { teamId: number; settings: SsoSettings; onSaved: (s: SsoSettings) => void }) {
  const { t } = useLingui();
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [check, checking] = useAction(async () => {
    const answer = await Sso.verify(teamId);
    onSaved(answer.data);
    setProblems(answer.problems);
    if (Object.keys(answer.problems).length === 0) toast.show(t`Every domain is verified.`, { kind: 'success' });
  });
  if (settings.domains.length === 0) return null;
  return (
    <section className="form" aria-labelledby="sso-domains-heading" data-testid="sso-domains">
      <h2 id="sso-domains-heading">
        <Trans>Domain verification</Trans>
      </h2>
      <p>
        <Trans>A domain signs people in only after you prove it is yours: add this TXT record at your DNS provider, then check.</Trans>
      </p>
      <table className="table">
        <thead>
          <tr>
            <th>
              <Trans>Domain</Trans>
            </th>
            <th>
              <Trans>TXT record</Trans>
            </th>
            <th>
              <Trans>Value</Trans>
            </th>
            <th>
              <Trans>Status</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {settings.domains.map((d) => (
            <tr key={d.domain} data-testid={`sso-domain-${d.domain}`}>
              <td>{d.domain}</td>
              <td>
                <code>{d.record}</code>
              </td>
              <td>
                <code>{d.value}</code>
              </td>
              <td>
                {d.verified ? (
                  <span className="badge badge-success">
                    <Trans>Verified</Trans>
                  </span>
                ) : (
                  <>
                    <Trans>Not verified</Trans>
                    {problems[d.domain] && <small className="field-error"> {problems[d.domain]}</small>}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="form-actions">
        <button type="button" className="ui-button ui-button--secondary ui-button--md" disabled={checking} aria-busy={checking} onClick={() => void check()}>
          <Trans>Check DNS records</Trans>
        </button>
      </div>
    </section>
  );
}

function SamlForm({ teamId, settings, onSaved, translate }: { teamId: number; settings: SsoSettings; onSaved: (s: SsoSettings) => void; translate: (d: MessageDescriptor) => string }) {
  const { t, i18n } = useLingui();
  const s = settings.saml;
  const [entityId, setEntityId] = useState(s?.entity_id ?? '');
  const [ssoUrl, setSsoUrl] = useState(s?.sso_url ?? '');
  const [certificate, setCertificate] = useState('');
  const [problems, setProblems] = useState<{ fields: FieldProblems; message: string | null }>({ fields: {}, message: null });
  const [save, saving] = useAction(
    async () => {
      setProblems({ fields: {}, message: null });
      onSaved(await Sso.save(teamId, { saml: { entity_id: entityId.trim(), sso_url: ssoUrl.trim(), certificate } }));
      setCertificate('');
      toast.show(t`SAML settings saved.`, { kind: 'success' });
    },
    {
      onError: (error) => {
        const found = problemsOf(error, translate);
        if (found) setProblems(found);
        return !!found;
      },
    },
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };
  const f = problems.fields;
  const subject = s?.certificate_subject ?? '';
  const validUntil = s?.certificate_valid_to ? i18n.date(new Date(s.certificate_valid_to), { dateStyle: 'medium' }) : '—';
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-labelledby="sso-saml-heading">
      <h2 id="sso-saml-heading">
        <Trans>SAML configuration</Trans>
      </h2>
      <p className="muted" data-testid="sso-saml-inactive">
        <Trans>
          SAML sign-in is not active. Cairn stores and checks these settings, but signing in with SAML needs a SAML service provider that this version does not include yet. Use OpenID Connect above to let
          members sign in; most providers offer both.
        </Trans>
      </p>
      <Field label={t`Identity provider entity ID`} name="entity_id" required error={f['saml.entity_id']} value={entityId} onChange={(e) => setEntityId(e.target.value)} />
      <Field label={t`Single sign-on URL`} name="sso_url" type="url" required error={f['saml.sso_url']} value={ssoUrl} onChange={(e) => setSsoUrl(e.target.value)} />
      <div className={f['saml.certificate'] ? 'field has-error' : 'field'}>
        <label htmlFor="sso-saml-certificate">
          <Trans>Signing certificate (PEM)</Trans>
        </label>
        <textarea id="sso-saml-certificate" name="certificate" rows={5} value={certificate} onChange={(e) => setCertificate(e.target.value)} aria-invalid={f['saml.certificate'] ? true : undefined} />
        {s?.certificate_subject && (
          <small className="muted">
            <Trans>
              Stored certificate: {subject}, valid until {validUntil}. Paste a new one to replace it.
            </Trans>
          </small>
        )}
        {f['saml.certificate'] && <small className="field-error">{f['saml.certificate']}</small>}
      </div>
      <FormError message={problems.message} />
      <div className="form-actions">
        <SubmitButton busy={saving}>
          <Trans>Save SAML settings</Trans>
        </SubmitButton>
      </div>
    </form>
  );
}

function RemoveAll({ onRemove }: { onRemove: () => Promise<void> }) {
  const [run, busy] = useAction(onRemove);
  return (
    <p>
      <button type="button" className="ui-button ui-button--danger ui-button--md" disabled={busy} onClick={() => void run()}>
        <Trans>Remove single sign-on</Trans>
      </button>
    </p>
  );
}
