import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { LOCALES, THEME_MODE } from '../../../schema/constants';
import { Accounts, type Profile } from '../../api/endpoints';
import { session, useSession } from '../../api/session';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { toast } from '../../ui/toast-store';
import { applyUserPreferences } from '../../preferences';
import { Page } from '../Page';
import { Field, SubmitButton, useAction } from '../forms';
import { FormError } from '../auth/AuthFrame';
import { inlineErrorOf } from '../auth/form-errors';
import { PhotoField } from './PhotoField';
import { Select } from '../../ui/Select';
import { timeZoneOptions } from './time-zone-options';

/** Languages by their own names, so anyone can find theirs. */
const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  sr: 'Srpski',
  es: 'Español',
  it: 'Italiano',
  de: 'Deutsch',
  fr: 'Français',
  pl: 'Polski',
  ar: 'العربية',
  tr: 'Türkçe',
  zh: '中文',
  ko: '한국어',
};

function timeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['UTC'];
}

export default function ProfileSettingsPage() {
  const { t, i18n } = useLingui();
  const zoneOptions = useMemo(() => timeZoneOptions(timeZones()), []);
  const { user } = useSession();
  const [form, setForm] = useState<Profile | null>(user);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setForm((f) => f ?? user), [user]);

  const dayNames = [0, 1, 2, 3, 4, 5, 6].map((d) => new Intl.DateTimeFormat(i18n.locale, { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2023, 0, 1 + d))));

  const [save, saving] = useAction(
    async () => {
      if (!form || !user) return;
      setError(null);
      const before = user;
      const patch = { name: form.name.trim(), locale: form.locale, timezone: form.timezone || null, start_of_week: form.start_of_week, theme: form.theme };
      // Applied at once, reverted if the server refuses (workspace.md §4).
      await applyUserPreferences({ ...user, ...patch });
      try {
        const updated = await Accounts.updateMe(patch);
        session.setUser(updated);
        toast.show(t`Profile saved.`, { kind: 'success' });
      } catch (err) {
        await applyUserPreferences(before);
        throw err;
      }
    },
    {
      onError: (err) => {
        const inline = inlineErrorOf(err);
        setError(inline);
        return Boolean(inline);
      },
    },
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };

  if (!form || !user) return <Page />;
  const set = (patch: Partial<Profile>) => setForm({ ...form, ...patch });

  return (
    <Page narrow>
      <OnlineOnly>
        <PhotoField
          label={t`Profile photo`}
          url={user.photo_url}
          onUpload={async (file) => session.setUser(await Accounts.uploadPhoto(file))}
          onRemove={async () => session.setUser(await Accounts.deletePhoto())}
        />
        <form className="form" onSubmit={onSubmit} noValidate>
          <Field label={t`Name`} name="name" required autoComplete="name" value={form.name} onChange={(e) => set({ name: e.target.value })} />
          <div className="field">
            <label htmlFor="profile-locale">
              <Trans>Language</Trans>
            </label>
            <select id="profile-locale" value={form.locale.split('-')[0]} onChange={(e) => set({ locale: e.target.value })}>
              {LOCALES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {LANGUAGE_NAMES[code]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="profile-timezone">
              <Trans>Time zone</Trans>
            </label>
            {/* Searchable, grouped by region, with the offset now (issue #17 part 6). */}
            <Select
              id="profile-timezone"
              searchable
              value={form.timezone ?? ''}
              onChange={(value) => set({ timezone: value || null })}
              options={[{ value: '', label: t`Use the device time zone`, synonyms: ['device', 'auto'] }, ...zoneOptions]}
            />
          </div>
          <div className="field">
            <label htmlFor="profile-week">
              <Trans>Start of the week</Trans>
            </label>
            <select id="profile-week" value={form.start_of_week ?? ''} onChange={(e) => set({ start_of_week: e.target.value === '' ? null : Number(e.target.value) })}>
              <option value="">{t`As usual for my language`}</option>
              {dayNames.map((name, day) => (
                <option key={day} value={day}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="field">
            <legend>
              <Trans>Theme</Trans>
            </legend>
            {(
              [
                [THEME_MODE.light, t`Light`],
                [THEME_MODE.dark, t`Dark`],
                [THEME_MODE.system, t`Same as the system`],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="radio">
                <input type="radio" name="theme" value={value} checked={form.theme === value} onChange={() => set({ theme: value })} /> {label}
              </label>
            ))}
          </fieldset>
          <FormError message={error} />
          <SubmitButton busy={saving}>
            <Trans>Save</Trans>
          </SubmitButton>
        </form>
      </OnlineOnly>
    </Page>
  );
}
