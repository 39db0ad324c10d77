import { useEffect, useState, type CSSProperties } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ApiRequestError } from '../../api/client';
import { showApiError } from '../../api/handle-error';
import { workspaces } from '../../api/workspaces-cache';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { toast } from '../../ui/toast-store';
import { EmptyState } from '../../ui/EmptyState';
import { pathFor } from '../../../schema/routes';
import { APP_NAME_KEY, COLOR_KEY_PREFIX, FONT_KEY, WHITELABEL_IMAGE_WIDTH, WhitelabelMessages, type WhitelabelAsset, type WhitelabelState } from '../../../schema/whitelabel';
import { Page } from '../Page';
import { Field, SubmitButton, useAction, useFormAction } from '../forms';
import { FormError } from '../auth/AuthFrame';
import { useTeamId } from './use-team';
import { WhitelabelApi } from './whitelabel-api';
import './whitelabel.css';
import { Waiting } from '../../connectivity/Waiting';

/** The colours offered on the form (the app has more tokens; these carry a brand). */
const COLORS = ['primary', 'primaryContrast', 'background', 'text', 'sidebar', 'sidebarText'] as const;
const COLOR_DEFAULTS: Record<(typeof COLORS)[number], string> = { primary: '#2f5d8a', primaryContrast: '#ffffff', background: '#f6f7fb', text: '#1d2030', sidebar: '#ffffff', sidebarText: '#1d2030' };
const HEX = /^#[0-9a-f]{6}$/i;

/**
 * team.whitelabel (workspace.md §2, §3, §6, §7, §9; decision 0265): the owner's white-label
 * settings with a live preview, the three images, the custom domain and its DNS check, and the
 * custom SMTP server with a test mail. A workspace whose plan does not include white label is told
 * so, with the way to the plans.
 */
export default function WhitelabelPage() {
  const { t } = useLingui();
  const teamId = useTeamId();
  const [state, setState] = useState<WhitelabelState | null>(null);
  const [refused, setRefused] = useState(false);

  useEffect(() => {
    let live = true;
    WhitelabelApi.get(teamId)
      .then((value) => live && setState(value))
      .catch((error) => {
        if (!live) return;
        if (error instanceof ApiRequestError && (error.status === 403 || error.status === 404)) setRefused(true);
        else showApiError(error);
      });
    return () => {
      live = false;
    };
  }, [teamId]);

  if (refused) {
    return (
      <Page narrow>
        <EmptyState title={t`Only the workspace owner controls white label.`} action={<Link to={pathFor('team.boards', { teamId })}>{t`Back to the workspace`}</Link>} />
      </Page>
    );
  }
  if (!state) {
    return (
      <Page>
        <Waiting />
      </Page>
    );
  }
  if (!state.eligible) {
    return (
      <Page narrow>
        <EmptyState
          title={state.reason === 'limit_exceeded' ? t`Your plan’s white-label limit is exceeded: another workspace of this subscription already uses white label.` : t`White label needs a lifetime-deal workspace.`}
          text={t`White label puts your own name, logo, colours, domain and mail server on this workspace.`}
          action={
            <Link className="ui-button ui-button--primary ui-button--md" to={pathFor('profile.billing')}>
              {t`See plans`}
            </Link>
          }
        />
      </Page>
    );
  }
  return (
    <Page>
      <OnlineOnly>
        <div className="whitelabel">
          <BrandSection teamId={teamId} state={state} onSaved={setState} />
          <AssetsSection teamId={teamId} state={state} onSaved={setState} />
          <DomainSection teamId={teamId} state={state} onSaved={setState} />
          <SmtpSection teamId={teamId} state={state} onSaved={setState} />
        </div>
      </OnlineOnly>
    </Page>
  );
}

type SectionProps = { teamId: number; state: WhitelabelState; onSaved: (state: WhitelabelState) => void };

function BrandSection({ teamId, state, onSaved }: SectionProps) {
  const { t } = useLingui();
  const [name, setName] = useState(state.settings[APP_NAME_KEY] ?? '');
  const [font, setFont] = useState(state.settings[FONT_KEY] ?? '');
  const [colors, setColors] = useState<Record<string, string>>(() => Object.fromEntries(COLORS.map((c) => [c, state.settings[COLOR_KEY_PREFIX + c] ?? ''])));
  const labels: Record<(typeof COLORS)[number], string> = {
    primary: t`Main colour`,
    primaryContrast: t`Text on the main colour`,
    background: t`Page background`,
    text: t`Text`,
    sidebar: t`Sidebar`,
    sidebarText: t`Sidebar text`,
  };
  const { onSubmit, busy, error, fieldError } = useFormAction(async () => {
    const settings: Record<string, string | null> = { [APP_NAME_KEY]: name.trim() || null, [FONT_KEY]: font.trim() || null };
    for (const c of COLORS) settings[COLOR_KEY_PREFIX + c] = colors[c]!.trim() || null;
    const next = await WhitelabelApi.save(teamId, { settings });
    onSaved(next);
    toast.show(t`White label saved.`, { kind: 'success' });
    await workspaces.refresh().catch(() => {});
  });
  // The preview takes the form's values as they are typed (custom properties set through the CSSOM, which the CSP allows).
  const preview: Record<string, string> = {};
  const props: Record<string, string> = { primary: '--color-primary', primaryContrast: '--color-primary-contrast', background: '--color-bg', text: '--color-text', sidebar: '--color-sidebar', sidebarText: '--color-sidebar-text' };
  for (const c of COLORS) if (colors[c]) preview[props[c]!] = colors[c]!;
  const shownName = name.trim() || 'Cairn';
  return (
    <section className="whitelabel-section" aria-labelledby="wl-brand">
      <h2 id="wl-brand">
        <Trans>Name, font and colours</Trans>
      </h2>
      <div className="whitelabel-columns">
        <form className="form" onSubmit={onSubmit} noValidate>
          <Field label={t`App name`} name="app.name" maxLength={60} value={name} onChange={(e) => setName(e.target.value)} hint={t`Shown as the page title, in the sidebar and on the sign-in page of your domain.`} error={fieldError('settings.app.name')} />
          <Field label={t`Font stylesheet`} name="font" type="url" placeholder="https://fonts.googleapis.com/css2?family=Inter" value={font} onChange={(e) => setFont(e.target.value)} hint={t`The https address of a web-font stylesheet; its family is used for all text.`} error={fieldError('settings.app.customization.font')} />
          <div className="whitelabel-colors">
            {COLORS.map((c) => (
              <label className="whitelabel-color" key={c}>
                <span>{labels[c]}</span>
                <input type="color" aria-label={labels[c]} value={HEX.test(colors[c]!) ? colors[c] : COLOR_DEFAULTS[c]} onChange={(e) => setColors({ ...colors, [c]: e.target.value })} />
                <input type="text" aria-label={t`${labels[c]} (CSS value)`} name={`color-${c}`} placeholder={t`Default`} maxLength={60} value={colors[c]} onChange={(e) => setColors({ ...colors, [c]: e.target.value })} />
              </label>
            ))}
          </div>
          <FormError message={error} />
          <SubmitButton busy={busy}>
            <Trans>Save</Trans>
          </SubmitButton>
        </form>
        <figure className="whitelabel-preview" style={preview as CSSProperties} aria-label={t`Preview`} data-testid="whitelabel-preview">
          <div className="whitelabel-preview__bar">
            {state.logoWide ? <img src={state.logoWide} alt="" /> : state.logo ? <img src={state.logo} alt="" /> : null}
            <span>{shownName}</span>
          </div>
          <div className="whitelabel-preview__body">
            <strong>
              <Trans>Welcome to {shownName}</Trans>
            </strong>
            <span className="muted">
              <Trans>This is how your workspace looks on your domain.</Trans>
            </span>
            <button type="button" className="whitelabel-preview__button" tabIndex={-1}>
              <Trans>New item</Trans>
            </button>
          </div>
        </figure>
      </div>
    </section>
  );
}

function AssetsSection({ teamId, state, onSaved }: SectionProps) {
  const { t } = useLingui();
  const labels: Record<WhitelabelAsset, string> = { logo: t`Logo (also the browser icon)`, logoWide: t`Wide logo (sidebar)`, loader: t`Loading image` };
  return (
    <section className="whitelabel-section" aria-labelledby="wl-images">
      <h2 id="wl-images">
        <Trans>Images</Trans>
      </h2>
      <p className="muted">
        <Trans>PNG, JPEG, GIF or WebP, at most 2 MB. Recommended width: {WHITELABEL_IMAGE_WIDTH} px.</Trans>
      </p>
      <div className="whitelabel-assets">
        {(['logo', 'logoWide', 'loader'] as const).map((asset) => (
          <AssetField key={asset} label={labels[asset]} url={state[asset]} onUpload={async (file) => onSaved(await WhitelabelApi.upload(teamId, asset, file))} onRemove={async () => onSaved(await WhitelabelApi.remove(teamId, asset))} />
        ))}
      </div>
    </section>
  );
}

const ASSET_MAX_BYTES = 2 * 1024 * 1024;

function AssetField({ label, url, onUpload, onRemove }: { label: string; url: string | null; onUpload: (file: File) => Promise<void>; onRemove: () => Promise<void> }) {
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const take = (err: unknown) => {
    if (err instanceof ApiRequestError && (err.status === 422 || err.status === 413)) {
      setError(err.body?.message ?? null);
      return true;
    }
    return false;
  };
  const [upload, uploading] = useAction(async (file: File) => {
    setError(null);
    if (file.size > ASSET_MAX_BYTES) return setError(t`The file is too large. It must be under 2 MB.`);
    await onUpload(file);
  }, { onError: take });
  const [remove, removing] = useAction(onRemove, { onError: take });
  return (
    <div className="whitelabel-asset">
      <span className="field-label">{label}</span>
      {url ? <img src={url} alt={label} /> : <span className="muted">{t`None`}</span>}
      <label className="ui-button ui-button--secondary ui-button--sm">
        <Trans>Upload image</Trans>
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          className="visually-hidden"
          disabled={uploading}
          aria-label={label}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void upload(file);
          }}
        />
      </label>
      {url && (
        <button type="button" className="link-button" disabled={removing} onClick={() => void remove()}>
          <Trans>Remove image</Trans>
        </button>
      )}
      <FormError message={error} />
    </div>
  );
}

function DomainSection({ teamId, state, onSaved }: SectionProps) {
  const { t } = useLingui();
  const [domain, setDomain] = useState(state.domain?.name ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const { onSubmit, busy, error, fieldError } = useFormAction(async () => {
    onSaved(await WhitelabelApi.save(teamId, { domain: domain.trim() || null }));
    toast.show(t`Domain saved.`, { kind: 'success' });
  });
  const [verify, verifying] = useAction(
    async () => {
      setProblem(null);
      onSaved(await WhitelabelApi.verify(teamId));
      toast.show(t`The domain is verified.`, { kind: 'success' });
      await workspaces.refresh().catch(() => {});
    },
    {
      onError: (err) => {
        if (err instanceof ApiRequestError && err.type === 'domain_not_verified') {
          if (err.body?.data) onSaved(err.body.data as WhitelabelState);
          setProblem(err.body?.message ?? null);
          return true;
        }
        return false;
      },
    },
  );
  const d = state.domain;
  return (
    <section className="whitelabel-section" aria-labelledby="wl-domain">
      <h2 id="wl-domain">
        <Trans>Custom domain</Trans>
      </h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <div className="whitelabel-row">
          <Field label={t`Domain`} name="domain" placeholder="work.example.com" value={domain} onChange={(e) => setDomain(e.target.value)} error={fieldError('domain')} />
          <SubmitButton busy={busy}>
            <Trans>Save domain</Trans>
          </SubmitButton>
        </div>
        <FormError message={error} />
      </form>
      {d && (
        <div className="whitelabel-record" data-testid="whitelabel-domain">
          <p className={d.verified ? 'whitelabel-status--ok' : 'whitelabel-status--pending'} role="status">
            {d.verified ? t`Verified: the app is served at ${d.name}.` : t`Not verified yet.`}
          </p>
          <span>
            <Trans>Add this TXT record at your DNS provider, point the domain at this server (a CNAME or A record), then verify:</Trans>
          </span>
          <span>
            <Trans>Name</Trans>: <code>{d.record}</code>
          </span>
          <span>
            <Trans>Value</Trans>: <code>{d.value}</code>
          </span>
          {state.link && (
            <a href={state.link} target="_blank" rel="noopener noreferrer">
              {state.link}
            </a>
          )}
          <FormError message={problem} />
          <div>
            <button type="button" className="ui-button ui-button--secondary ui-button--md" disabled={verifying} aria-busy={verifying} onClick={() => void verify()}>
              {d.verified ? t`Check again` : t`Verify`}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function SmtpSection({ teamId, state, onSaved }: SectionProps) {
  const { t } = useLingui();
  const s = state.smtp;
  const [host, setHost] = useState(s?.host ?? '');
  const [port, setPort] = useState(String(s?.port ?? 587));
  const [secure, setSecure] = useState(s?.secure ?? false);
  const [user, setUser] = useState(s?.user ?? '');
  const [password, setPassword] = useState('');
  const [from, setFrom] = useState(s?.from ?? '');
  const [email, setEmail] = useState('');
  const [mailProblem, setMailProblem] = useState<string | null>(null);
  const { onSubmit, busy, error, fieldError } = useFormAction(async () => {
    const next = host.trim()
      ? await WhitelabelApi.save(teamId, { smtp: { host: host.trim(), port: Number(port), secure, user: user.trim() || null, ...(password ? { password } : {}), from: from.trim() } })
      : await WhitelabelApi.save(teamId, { smtp: null });
    setPassword('');
    onSaved(next);
    toast.show(t`Mail server saved.`, { kind: 'success' });
  });
  const [send, sending] = useAction(
    async () => {
      setMailProblem(null);
      await WhitelabelApi.testMail(teamId, email.trim());
      toast.show(t`Test mail sent to ${email.trim()}.`, { kind: 'success' });
    },
    {
      onError: (err) => {
        if (err instanceof ApiRequestError && err.status === 422) {
          const detail = (err.body?.data as { detail?: string } | undefined)?.detail;
          const message = err.body?.message === WhitelabelMessages.smtpError ? t`SMTP configuration error` : (err.body?.message ?? '');
          setMailProblem(detail ? `${message}: ${detail}` : message);
          return true;
        }
        return false;
      },
    },
  );
  return (
    <section className="whitelabel-section" aria-labelledby="wl-smtp">
      <h2 id="wl-smtp">
        <Trans>Mail server (SMTP)</Trans>
      </h2>
      <p className="muted">
        <Trans>Invitations of this workspace are sent through this server. Leave the host empty to use this app’s own mail.</Trans>
      </p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <div className="whitelabel-row">
          <Field label={t`Host`} name="smtp-host" placeholder="smtp.example.com" value={host} onChange={(e) => setHost(e.target.value)} error={fieldError('smtp.host')} />
          <Field label={t`Port`} name="smtp-port" type="number" min={1} max={65535} value={port} onChange={(e) => setPort(e.target.value)} error={fieldError('smtp.port')} />
        </div>
        <label className="whitelabel-check">
          <input type="checkbox" checked={secure} onChange={(e) => setSecure(e.target.checked)} />
          <Trans>Use TLS from the start (usually port 465)</Trans>
        </label>
        <div className="whitelabel-row">
          <Field label={t`User name`} name="smtp-user" autoComplete="off" value={user} onChange={(e) => setUser(e.target.value)} />
          <Field label={t`Password`} name="smtp-password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} placeholder={s?.hasPassword ? t`Stored; leave empty to keep it` : ''} />
        </div>
        <Field label={t`Sender`} name="smtp-from" placeholder="Acme <no-reply@example.com>" value={from} onChange={(e) => setFrom(e.target.value)} error={fieldError('smtp.from')} />
        <FormError message={error} />
        <SubmitButton busy={busy}>
          <Trans>Save mail server</Trans>
        </SubmitButton>
      </form>
      {s && (
        <div className="whitelabel-row">
          <Field label={t`Send a test mail to`} name="test-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          <button type="button" className="ui-button ui-button--secondary ui-button--md" disabled={sending || !email.trim()} aria-busy={sending} onClick={() => void send()}>
            <Trans>Send test mail</Trans>
          </button>
        </div>
      )}
      <FormError message={mailProblem} />
    </section>
  );
}
