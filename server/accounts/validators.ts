import { z } from 'zod';
import { LOCALES, PASSWORD_MIN_LENGTH, THEME_MODE } from '../../schema/constants';

/** Body validators of the accounts endpoints. Messages read after the field name ("email: ..."). */

const MAX_PASSWORD = 1024;

export const emailField = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(254, 'must be at most 254 characters')
  .pipe(z.email({ error: 'must be a valid email address' }));

export const passwordField = z
  .string({ error: 'is required' })
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(MAX_PASSWORD, `must be at most ${MAX_PASSWORD} characters`);

/** Any password to check (login, reauth): no minimum, since old passwords may predate the rule. */
export const givenPassword = z.string({ error: 'is required' }).min(1, 'is required').max(MAX_PASSWORD, `must be at most ${MAX_PASSWORD} characters`);

export const nameField = z.string({ error: 'is required' }).trim().min(1, 'is required').max(255, 'must be at most 255 characters');

/** A BCP 47 tag whose language is one the interface speaks: en, en-US, sr-Latn, zh-CN. */
export const localeField = z
  .string({ error: 'must be a string' })
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en-US')
  .refine((tag) => (LOCALES as readonly string[]).includes(tag.split('-')[0]!), `must be one of the supported languages: ${LOCALES.join(', ')}`);

export const timezoneField = z
  .string({ error: 'must be a string' })
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/Belgrade');

/** A path inside the app to return to after login: relative only, never another origin. */
export const intendedField = z
  .string()
  .max(2000)
  .refine((p) => p.startsWith('/') && !p.startsWith('//') && !p.startsWith('/\\'), 'must be a path inside the app');

export const registerBody = z
  .object({
    email: emailField,
    name: nameField,
    password: passwordField,
    locale: localeField.optional(),
    source: z.string({ error: 'must be a string' }).max(255, 'must be at most 255 characters').nullish(),
    /** The token of an invitation mail: registering claims the invited (pending) account. */
    invitation: z.string({ error: 'must be a string' }).min(1).max(512).optional(),
    /** The code of the referral link the person came through (decision 0260); an unknown one is ignored. */
    referral: z.string({ error: 'must be a string' }).max(64, 'must be at most 64 characters').optional(),
    grantType: z.literal('password', { error: 'must be "password" when given' }).optional(),
    intended: intendedField.optional(),
  })
  .strict();

export const loginBody = z
  .object({
    email: emailField,
    password: givenPassword,
    totp: z.string({ error: 'must be a string' }).max(16).nullish(),
    recoveryCode: z.string({ error: 'must be a string' }).max(64).nullish(),
    grantType: z.literal('password', { error: 'must be "password" when given' }).optional(),
    intended: intendedField.optional(),
  })
  .strict();

export const refreshBody = z
  .object({
    grantType: z.enum(['refresh_token', 'password'], { error: 'must be "refresh_token" when given' }).optional(),
    refresh_token: z.string({ error: 'must be a string' }).min(1).max(512).optional(),
  })
  .strict();

export const logoutBody = z.object({ refresh_token: z.string().max(512).optional() }).strict();

export const passwordOnlyBody = z.object({ password: givenPassword }).strict();

export const forgotPasswordBody = z.object({ email: emailField }).strict();

export const resetPasswordBody = z
  .object({ token: z.string({ error: 'is required' }).min(1, 'is required').max(512), email: emailField, password: passwordField })
  .strict();

export const verifyEmailBody = z.object({ token: z.string({ error: 'is required' }).min(1, 'is required').max(512) }).strict();

export const codeBody = z.object({ code: z.string({ error: 'is required' }).min(1, 'is required').max(16) }).strict();

const PREFERENCES_MAX_BYTES = 16 * 1024;

/** Preferences are merged key by key; a key set to null is removed. */
export const preferencesPatch = z
  .object({
    workspaceSortOrder: z.array(z.number().int(), { error: 'must be a list of workspace ids' }).max(1000).nullish(),
    api_dev_helper: z.boolean({ error: 'must be true or false' }).nullish(),
    usedCancelCoupon: z.boolean({ error: 'must be true or false' }).nullish(),
  })
  .catchall(z.unknown())
  .refine((p) => JSON.stringify(p).length <= PREFERENCES_MAX_BYTES, `must be at most ${PREFERENCES_MAX_BYTES / 1024} KB`);

const themeValues = Object.values(THEME_MODE) as number[];

export const profileBody = z
  .object({
    name: nameField.optional(),
    locale: localeField.optional(),
    timezone: timezoneField.nullable().optional(),
    start_of_week: z.number({ error: 'must be a day number from 0 (Sunday) to 6' }).int('must be a day number from 0 (Sunday) to 6').min(0, 'must be a day number from 0 (Sunday) to 6').max(6, 'must be a day number from 0 (Sunday) to 6').nullable().optional(),
    theme: z.number({ error: 'must be 0 (light), 1 (dark) or 2 (system)' }).refine((t) => themeValues.includes(t), 'must be 0 (light), 1 (dark) or 2 (system)').optional(),
    preferences: preferencesPatch.optional(),
  })
  .strict();

export const changeEmailBody = z.object({ email: emailField }).strict();

export const changePasswordBody = z.object({ current_password: givenPassword, password: passwordField }).strict();
