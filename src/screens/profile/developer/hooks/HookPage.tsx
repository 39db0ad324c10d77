import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLingui as useLinguiRuntime } from '@lingui/react';
import { pathFor } from '../../../../../schema/routes';
import type { Hook, HookEventType } from '../../../../../schema/hooks';
import { formatDate } from '../../../../i18n/locale';
import { OnlineOnly } from '../../../../connectivity/OnlineOnly';
import { confirm } from '../../../../ui/confirm-store';
import { toast } from '../../../../ui/toast-store';
import { Button } from '../../../../ui/Button';
import { EmptyState } from '../../../../ui/EmptyState';
import { Page } from '../../../Page';
import { Field, SubmitButton, useAction, useFormAction } from '../../../forms';
import { FormError } from '../../../auth/AuthFrame';
import { useLoad } from '../../../workspace/use-team';
import { SecretOnce } from '../SecretOnce';
import { HookEvents } from './HookEvents';
import { Hooks, myHook } from './hooks-api';
import '../developer.css';
import './hooks.css';

/**
 * /profile/developer/hooks/:hookId: one webhook — its URL, events and active switch (saved
 * together), a new signing secret (shown once), "Send test", delete, and the way to its logs.
 */
export default function HookPage() {
  const { hookId } = useParams({ strict: false }) as { hookId: string };
  const { t } = useLingui();
  const loaded = useLoad(() => myHook(hookId), [hookId]);
  if (loaded.data === null && !loaded.failed) {
    return (
      <Page>
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      </Page>
    );
  }
  if (!loaded.data) {
    return (
      <Page>
        <EmptyState headingLevel={2} title={t`Hook missing or not loaded`} text={t`It may have been deleted, or it belongs to someone else.`} />
        <BackToHooks />
      </Page>
    );
  }
  return <HookEditor hook={loaded.data} onChanged={loaded.reload} />;
}

function BackToHooks() {
  return (
    <p>
      <Link to={pathFor('profile.developer.hooks')}>
        <Trans>Back to Webhooks</Trans>
      </Link>
    </p>
  );
}

function HookEditor({ hook, onChanged }: { hook: Hook; onChanged: () => void }) {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const navigate = useNavigate();
  const [url, setUrl] = useState(hook.url);
  const [events, setEvents] = useState<HookEventType[]>(hook.events);
  const [active, setActive] = useState(hook.active);
  const [secret, setSecret] = useState<string | null>(null);
  useEffect(() => {
    setUrl(hook.url);
    setEvents(hook.events);
    setActive(hook.active);
  }, [hook]);

  const form = useFormAction(async () => {
    await Hooks.save(hook.team_id, hook.id, { url: url.trim(), events, active });
    toast.show(t`Webhook saved`, { kind: 'success' });
    onChanged();
  });
  const [rotate] = useAction(async () => {
    if (!(await confirm({ message: t`Make a new signing secret? Requests are signed with the new one at once, so update your receiver.`, danger: true }))) return;
    const saved = await Hooks.save(hook.team_id, hook.id, { rotate_secret: true });
    setSecret(saved.secret ?? null);
  });
  const [test, testing] = useAction(async () => {
    await Hooks.test(hook);
    toast.show(t`Connection successful!`, { kind: 'success' });
  });
  const [remove] = useAction(async () => {
    if (!(await confirm({ message: t`Delete this webhook? Its logs are deleted too.`, danger: true, confirmLabel: t`Delete` }))) return;
    await Hooks.remove(hook);
    toast.show(t`Webhook deleted`, { kind: 'success' });
    await navigate({ to: pathFor('profile.developer.hooks') });
  });

  const switchedOff = hook.deactivated_at ? formatDate(hook.deactivated_at, i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }) : null;
  return (
    <Page>
      <p>
        <span className="hook-url" dir="ltr">
          {hook.url}
        </span>{' '}
        — {hook.team_name}
      </p>
      {switchedOff && !hook.active && (
        <p className="hook-notice" role="status">
          <Trans>Switched off on {switchedOff} after 50 failed deliveries in a row. Fix the receiver, then switch the webhook on again.</Trans>
        </p>
      )}
      {secret && <SecretOnce label={t`New signing secret`} value={secret} testId="hook-secret" />}
      <OnlineOnly>
        <div className="hook-actions">
          <Button onClick={() => void test()} disabled={testing}>
            {testing ? t`Sending…` : t`Send test`}
          </Button>
          <Link className="ui-button ui-button--secondary ui-button--md" to={pathFor('profile.developer.hook.logs', { hookId: hook.id })}>
            <Trans>Logs</Trans>
          </Link>
          <Button onClick={() => void rotate()}>
            <Trans>New signing secret</Trans>
          </Button>
          <Button variant="danger" onClick={() => void remove()}>
            <Trans>Delete</Trans>
          </Button>
        </div>
        <form className="developer-form" onSubmit={form.onSubmit} noValidate>
          <Field label={t`Payload URL`} name="url" type="url" dir="ltr" value={url} maxLength={2000} required onChange={(e) => setUrl(e.target.value)} />
          <HookEvents value={events} onChange={setEvents} />
          <label>
            <input type="checkbox" name="active" checked={active} onChange={(e) => setActive(e.target.checked)} /> <Trans>Active: send events to this URL</Trans>
          </label>
          <FormError message={form.error} />
          <SubmitButton busy={form.busy}>
            <Trans>Save</Trans>
          </SubmitButton>
        </form>
      </OnlineOnly>
      <BackToHooks />
    </Page>
  );
}
