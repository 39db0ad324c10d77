import { z } from 'zod';

/**
 * White-label settings (workspace.md §3, §6, §7, §9; decision 0265), shared by the server's
 * validation and the white-label screen. Settings keys as the spec names them: `app.name`,
 * `app.customization.font` (a web-font stylesheet URL) and `app.customization.colors.{name}`.
 */

/** The spec's words for white label (workspace.md §5, §8), sent as `message` (the screen translates them). */
export const WhitelabelMessages = {
  needsLtd: 'White label needs a lifetime-deal workspace.',
  limitExceeded: 'Your plan’s white-label limit is exceeded: another workspace of this subscription already uses white label. Contact the owner to upgrade.',
  smtpError: 'SMTP configuration error',
  domainNotVerified: 'The domain could not be verified yet.',
} as const;

/** The colours a white-labelled workspace may set (the app's colour tokens, src/ui/tokens.ts). */
export const WHITELABEL_COLOR_NAMES = [
  'primary', 'primaryContrast', 'background', 'surface', 'surfaceRaised', 'sunken', 'border', 'text', 'textMuted',
  'danger', 'success', 'warning', 'info', 'focus', 'sidebar', 'sidebarText',
] as const;
export type WhitelabelColorName = (typeof WHITELABEL_COLOR_NAMES)[number];

/** The images a white-labelled workspace may upload (the spec's app config: logo, loader, logoWide). */
export const WHITELABEL_ASSETS = ['logo', 'loader', 'logoWide'] as const;
export type WhitelabelAsset = (typeof WHITELABEL_ASSETS)[number];

/** Recommended image width (workspace.md §9). */
export const WHITELABEL_IMAGE_WIDTH = 500;

export const APP_NAME_KEY = 'app.name';
export const FONT_KEY = 'app.customization.font';
export const COLOR_KEY_PREFIX = 'app.customization.colors.';

/**
 * Plain colour values only (hex, functional notations, named colours): a value is written into a
 * stylesheet, so nothing that could end a declaration or load something (`;`, `}`, `url(`) passes.
 */
export const SAFE_COLOR = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla|hwb|lab|lch|oklab|oklch)\([0-9a-z.,%\s/+-]*\)|[a-z]{3,30})$/i;
const RESERVED_COLOR_WORDS = /^(inherit|initial|unset|revert|var|url)$/i;

const colorValue = z
  .string({ error: 'must be a colour such as #1f6feb' })
  .trim()
  .max(60, 'must be at most 60 characters')
  .refine((v) => SAFE_COLOR.test(v) && !RESERVED_COLOR_WORDS.test(v), 'must be a colour such as #1f6feb or rgb(31 111 235)')
  .nullable();

/** A stylesheet URL the browser may load: https, no credentials, nothing that breaks out of an attribute or url(). */
export const fontUrl = z
  .string({ error: 'must be a URL' })
  .trim()
  .max(500, 'must be at most 500 characters')
  .refine((v) => {
    try {
      const url = new URL(v);
      return url.protocol === 'https:' && !url.username && !url.password && !/["'()<>\s\\`]/.test(v);
    } catch {
      return false;
    }
  }, 'must be an https address of a web-font stylesheet')
  .nullable();

const settingsShape: Record<string, z.ZodType> = {
  [APP_NAME_KEY]: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(60, 'must be at most 60 characters').refine((v) => !/[<>]/.test(v), 'must not contain < or >').nullable(),
  [FONT_KEY]: fontUrl,
};
for (const name of WHITELABEL_COLOR_NAMES) settingsShape[COLOR_KEY_PREFIX + name] = colorValue;

/** A change of settings: each key optional, null removes it, unknown keys are refused. */
export const whitelabelSettingsPatch = z.object(settingsShape).partial().strict();

export const domainName = z
  .string({ error: 'must be a string' })
  .trim()
  .toLowerCase()
  .max(253, 'must be at most 253 characters')
  .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain name such as work.example.com')
  .nullable();

export const smtpSettings = z
  .object({
    host: z.string({ error: 'is required' }).trim().min(1, 'is required').max(253, 'must be at most 253 characters').regex(/^[a-z0-9.:[\]-]+$/i, 'must be a host name or address'),
    port: z.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 to 65535').max(65535, 'must be 1 to 65535'),
    secure: z.boolean({ error: 'must be true or false' }).default(false),
    user: z.string().trim().max(254, 'must be at most 254 characters').nullable().default(null),
    /** Omitted: keep the stored one; null: none. */
    password: z.string().max(500, 'must be at most 500 characters').nullable().optional(),
    from: z.string({ error: 'is required' }).trim().min(3, 'is required').max(254, 'must be at most 254 characters'),
  })
  .strict()
  .nullable();

export const whitelabelBody = z
  .object({
    settings: whitelabelSettingsPatch.optional(),
    domain: domainName.optional(),
    smtp: smtpSettings.optional(),
  })
  .strict()
  .refine((body) => body.settings !== undefined || body.domain !== undefined || body.smtp !== undefined, 'settings, domain or smtp is required');

export const testMailBody = z.object({ email: z.string({ error: 'is required' }).trim().min(3, 'is required').max(254).pipe(z.email({ error: 'must be an email address' })) }).strict();

/** The family named in a web-font stylesheet URL (`?family=Open+Sans:wght@400`), or null. */
export function fontFamilyOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const family = new URL(url).searchParams.get('family');
    const name = family?.split(/[:|&]/)[0]?.replace(/\+/g, ' ').trim();
    return name && /^[a-z0-9 -]{1,60}$/i.test(name) ? name : null;
  } catch {
    return null;
  }
}

/** What GET/PUT answer about a workspace's white label (docs/api/whitelabel.md). */
export interface WhitelabelState {
  workspaceId: number;
  eligible: boolean;
  /** Why white label is allowed (plan_version, custom_deal, limit), or why not (not_eligible, limit_exceeded). */
  reason: 'plan_version' | 'custom_deal' | 'limit' | 'not_eligible' | 'limit_exceeded';
  tenantKey: string | null;
  settings: Record<string, string>;
  logo: string | null;
  loader: string | null;
  logoWide: string | null;
  link: string | null;
  domain: { name: string; record: string; value: string; verified: boolean; verifiedAt: string | null; checkedAt: string | null; problem: string | null } | null;
  smtp: { host: string; port: number; secure: boolean; user: string | null; from: string; hasPassword: boolean } | null;
}
