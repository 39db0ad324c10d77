import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { NOTIFICATION_TYPES, type ChannelSettings, type NotificationChannel, type NotificationSettings, type NotificationType } from '../../../schema/notifications';
import { useSession } from '../../api/session';
import { showApiError } from '../../api/handle-error';
import { NotificationsApi } from '../../notifications/api';
import { rememberNotificationSettings } from '../../notifications/desktop';
import { disablePush, enablePush, PushDeniedError, pushState, type PushState } from '../../notifications/push';
import { translateMessage } from '../../i18n/server-messages';
import { TOAST_ERROR_MS } from '../../../schema/constants';
import { notificationTypeLabels } from '../../notifications/texts';
import { BusyButton } from '../../ui/BusyButton';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { Page } from '../Page';
import '../../notifications/notifications.css';

/**
 * /profile/notifications: per type, on or off in the app, by email and on the desktop / by push
 * (GET/PUT /api/me/notification-settings), and Web Push for this device (push.ts). Each switch
 * saves at once and goes back if the server refuses.
 */
export default function NotificationSettingsPage() {
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const [settings, setSettings] = useState<NotificationSettings | null>(null);
  const [failed, setFailed] = useState(false);
  const [push, setPush] = useState<PushState | null>(null);

  useEffect(() => {
    if (!user || user.guest) return;
    let live = true;
    NotificationsApi.settings().then(
      (value) => {
        if (!live) return;
        setSettings(value);
        rememberNotificationSettings(value);
      },
      () => live && setFailed(true),
    );
    void pushState().then((state) => live && setPush(state));
    return () => {
      live = false;
    };
  }, [user]);

  if (!user) return <Page />;
  if (user.guest) {
    return (
      <Page narrow>
        <EmptyState title={t`Guests get no notifications.`} text={t`Sign up to be told when someone mentions you or comments on your items.`} />
      </Page>
    );
  }

  const channels: { key: NotificationChannel; label: string }[] = [
    { key: 'in_app', label: t`In the app` },
    { key: 'email', label: t`Email` },
    { key: 'push', label: t`Desktop and push` },
  ];

  const toggle = async (type: NotificationType, channel: NotificationChannel, on: boolean) => {
    const before = settings;
    if (!before) return;
    const next = { ...before, [type]: { ...before[type], [channel]: on } as ChannelSettings };
    setSettings(next);
    try {
      const saved = await NotificationsApi.saveSettings({ [type]: { [channel]: on } });
      setSettings(saved);
      rememberNotificationSettings(saved);
    } catch (error) {
      setSettings(before);
      showApiError(error);
    }
  };

  const changePush = async (on: boolean) => {
    try {
      setPush(on ? await enablePush() : await disablePush());
    } catch (error) {
      if (error instanceof PushDeniedError) {
        // The spec's words (shell.md §8); the page keeps the hint on how to allow them again.
        toast.show(translateMessage(error.message), { kind: 'error', duration: TOAST_ERROR_MS });
        setPush(await pushState().catch(() => 'off' as const));
        return;
      }
      // Registration failed (workspace.md §8: an alert): the push service or the server refused.
      showApiError(error);
      setPush(await pushState().catch(() => 'off' as const));
    }
  };

  return (
    <Page>
      <section aria-labelledby="push-heading" className="notification-push">
        <h2 id="push-heading">{t`This device`}</h2>
        {push === null ? (
          <Spinner size="sm" />
        ) : push === 'unsupported' ? (
          <p>{t`This browser cannot show notifications from Cairn.`}</p>
        ) : (
          <p>
            {push === 'on' && t`Desktop and push notifications are on for this device.`}
            {push === 'off' && t`Desktop and push notifications are off for this device.`}
            {push === 'denied' && t`The browser blocks notifications for this site. Allow them in the site settings, then try again.`}{' '}
            {push === 'on' ? (
              <BusyButton size="sm" onClick={() => changePush(false)}>{t`Turn off on this device`}</BusyButton>
            ) : (
              <BusyButton size="sm" variant="primary" onClick={() => changePush(true)}>{t`Turn on for this device`}</BusyButton>
            )}
          </p>
        )}
      </section>
      <section aria-labelledby="types-heading">
        <h2 id="types-heading">{t`What you are told about`}</h2>
        {failed ? (
          <p role="alert">{t`Notification settings could not be loaded. Check your connection and try again.`}</p>
        ) : !settings ? (
          <Spinner />
        ) : (
          <div className="notification-settings-wrap">
            <table className="notification-settings">
              <thead>
                <tr>
                  <th scope="col">{t`Notification`}</th>
                  {channels.map((c) => (
                    <th key={c.key} scope="col" className="notification-settings__switch">
                      {c.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {NOTIFICATION_TYPES.map((type) => {
                  const name = i18n._(notificationTypeLabels[type]);
                  return (
                    <tr key={type}>
                      <th scope="row">{name}</th>
                      {channels.map((c) => (
                        <td key={c.key} className="notification-settings__switch">
                          <input
                            type="checkbox"
                            aria-label={`${name}: ${c.label}`}
                            checked={settings[type]?.[c.key] ?? true}
                            onChange={(event) => void toggle(type, c.key, event.currentTarget.checked)}
                          />
                        </td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Page>
  );
}
