import { z } from 'zod';
import { LABEL_DEFAULT_TEXT_COLOR } from './constants';

/**
 * Attribute kinds, their settings and the shape of their values (workspace.md §3, §5).
 * Shared by the server (authoritative checks on save) and the app (inline editors, validation
 * messages). Pure: zod only. See docs/boards.md for the reading of the spec behind each kind.
 *
 * Where values live: one `value` record per item × attribute (schema/records.ts), its `value`
 * field holding the shape below. Two kinds store nothing in value records:
 *   - `primary`: the item's own `name` (the first column); the attribute record only names it.
 *   - `custom-id`, `button`, `time-tracking`: derived or action-only (entries live in time_entry).
 */

export const ATTRIBUTE_KINDS = [
  'primary',
  'text',
  'long-text',
  'number',
  'status',
  'label',
  'date',
  'date-range',
  'members',
  'email',
  'link',
  'reference',
  'checkbox',
  'button',
  'attachments',
  'custom-id',
  'time-tracking',
] as const;
export type AttributeKind = (typeof ATTRIBUTE_KINDS)[number];

export function isAttributeKind(value: unknown): value is AttributeKind {
  return typeof value === 'string' && (ATTRIBUTE_KINDS as readonly string[]).includes(value);
}

/** Kinds whose value is not stored in value records (derived, action-only or the item's name). */
export const KINDS_WITHOUT_VALUES: readonly AttributeKind[] = ['primary', 'button', 'custom-id', 'time-tracking'];

/** The spec's validation texts for attributes and values (workspace.md §5). English source. */
export const AttributeMessages = {
  duplicate: 'an attribute with the same name and type already exists',
  labelNeedsName: 'the label needs a name',
  invalidEmail: 'enter a valid email address',
  invalidUrl: 'provide a valid URL',
  unsafeUrl: 'a link must start with http:, https: or mailto:',
  endBeforeStart: "An item's end date must not be before its start date.",
  invalidNumber: 'enter a number',
  invalidDate: 'enter a valid date',
  unknownOption: 'choose one of the options',
  multipleLabel: 'A label cannot be chosen with multiple selections.',
  onePrimary: 'a board has one primary attribute',
  unknownKind: 'unknown attribute kind',
} as const;

// ── small checks (schema/ imports nothing of ours but constants, so these are local) ───────────
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export const isValidEmail = (text: string) => EMAIL.test(text.trim());

/** An absolute http(s) URL with a host; a bare "example.com" is accepted as https. */
export function normalizeUrl(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed || /\s/.test(trimmed)) return null;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(candidate);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname.includes('.') && url.hostname !== 'localhost') return null;
    return url.toString();
  } catch {
    return null;
  }
}

/** The schemes a stored address may open with (a button's link, an attachment): never javascript:, data:, file:, … */
export const SAFE_URL_SCHEMES: readonly string[] = ['http:', 'https:', 'mailto:'];

/**
 * Whether an address opens with a safe scheme. It is parsed as the browser parses an href (the
 * WHATWG URL rules strip spaces, tabs and newlines, so "java\tscript:" is javascript:); a relative
 * address, such as an upload's /api/files/…, is read against an https page, as the app is.
 */
export function hasSafeScheme(text: string): boolean {
  try {
    return SAFE_URL_SCHEMES.includes(new URL(text, 'https://app.invalid/').protocol);
  } catch {
    return false;
  }
}

/** A link field of a record: empty, or an address with a safe scheme. */
const safeUrl = z
  .string()
  .max(2048)
  .refine((text) => text === '' || hasSafeScheme(text), AttributeMessages.unsafeUrl);

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;
/** A calendar date `YYYY-MM-DD`, optionally with a time `THH:mm` (local to the board). */
export function isValidDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59)) return false;
  return true;
}
/** Dates in this shape compare correctly as text; a date without a time is the start of its day. */
export const compareDates = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// ── settings per kind ─────────────────────────────────────────────────────────────────────────
const HEX = /^#[0-9A-Fa-f]{6}$/;
const optionId = z.string().min(1).max(64);

/** A label (workspace.md §3): name, color, textColor defaulting to #4C4E69. */
export const labelOption = z.object({
  id: optionId,
  name: z.string().trim().min(1, AttributeMessages.labelNeedsName).max(255),
  color: z.string().regex(HEX).default('#E2E4F0'),
  textColor: z.string().regex(HEX).default(LABEL_DEFAULT_TEXT_COLOR),
  /** Dropdown options may carry synonyms for search (workspace.md §3). */
  synonyms: z.array(z.string().max(255)).max(50).optional(),
});
export type LabelOption = z.infer<typeof labelOption>;

/** A status is a label that may mark an item done. */
export const statusOption = labelOption.extend({ done: z.boolean().default(false) });
export type StatusOption = z.infer<typeof statusOption>;

export const attributeSettings = {
  primary: z.looseObject({}),
  text: z.looseObject({}),
  'long-text': z.looseObject({}),
  number: z.looseObject({ decimals: z.number().int().min(0).max(10).optional(), unit: z.string().max(16).optional() }),
  status: z.looseObject({ options: z.array(statusOption).max(200).default([]) }),
  label: z.looseObject({ options: z.array(labelOption).max(200).default([]), multiple: z.boolean().default(false) }),
  date: z.looseObject({ withTime: z.boolean().default(false) }),
  'date-range': z.looseObject({ withTime: z.boolean().default(false) }),
  members: z.looseObject({ multiple: z.boolean().default(true) }),
  email: z.looseObject({}),
  link: z.looseObject({}),
  /** Items of another board (or this one) this attribute points at. */
  reference: z.looseObject({ board_id: z.string().min(1).max(64).nullable().default(null), multiple: z.boolean().default(true) }),
  checkbox: z.looseObject({}),
  /** A button opens a link (the only action that needs no automation engine). */
  button: z.looseObject({ label: z.string().trim().min(1).max(64).default('Open'), url: safeUrl.default('') }),
  attachments: z.looseObject({}),
  /** Shown as prefix + the item's ordinal on the board, e.g. "TASK-12". */
  'custom-id': z.looseObject({ prefix: z.string().max(16).default('') }),
  'time-tracking': z.looseObject({ allowParallel: z.boolean().default(false), sharedEntries: z.boolean().default(true) }),
} satisfies Record<AttributeKind, z.ZodType>;

export type SettingsOf<K extends AttributeKind> = z.infer<(typeof attributeSettings)[K]>;

/** The settings of an attribute with defaults filled in (unknown kinds keep what they have). */
export function settingsOf<K extends AttributeKind>(kind: K, settings: unknown): SettingsOf<K> {
  const parsed = attributeSettings[kind].safeParse(settings ?? {});
  return (parsed.success ? parsed.data : attributeSettings[kind].parse({})) as SettingsOf<K>;
}

/** The largest file an attachments value takes (the server refuses bigger uploads with 413). */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

// ── value shapes ──────────────────────────────────────────────────────────────────────────────
export const attachmentValue = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(255),
  size: z.number().int().min(0),
  mime: z.string().max(255).optional(),
  url: safeUrl.refine((text) => text !== '', 'an attachment needs its address'),
});
export type Attachment = z.infer<typeof attachmentValue>;

export interface DateRange {
  start: string;
  end: string;
}
export interface LinkValue {
  url: string;
  text?: string;
}

/** What each kind's value holds (null always means "empty"). */
export interface ValueOf {
  primary: string;
  text: string;
  'long-text': string;
  number: number;
  status: string;
  label: string | string[];
  date: string;
  'date-range': DateRange;
  members: number[];
  email: string;
  link: LinkValue;
  reference: string[];
  checkbox: boolean;
  button: null;
  attachments: Attachment[];
  'custom-id': null;
  'time-tracking': null;
}

export interface AttributeLike {
  id?: string;
  kind: string;
  name?: string;
  folder_id?: string;
  board_id?: string;
  settings?: Record<string, unknown> | null;
  deleted_at?: string | null;
}

export type ValueCheck = { ok: true; value: unknown } | { ok: false; message: string };

const ok = (value: unknown): ValueCheck => ({ ok: true, value });
const fail = (message: string): ValueCheck => ({ ok: false, message });

/**
 * Checks (and normalises) a value for an attribute. `null`, `''` and `[]` are "empty" and always
 * valid (shell.md §5: empty input is valid); they normalise to null.
 */
export function checkValue(attribute: AttributeLike, raw: unknown): ValueCheck {
  if (raw === null || raw === undefined || raw === '' || (Array.isArray(raw) && raw.length === 0)) return ok(null);
  const kind = attribute.kind;
  if (!isAttributeKind(kind)) return fail(AttributeMessages.unknownKind);
  switch (kind) {
    case 'primary':
    case 'text':
    case 'long-text': {
      if (typeof raw !== 'string') return fail('enter text');
      const max = kind === 'long-text' ? 100_000 : 10_000;
      return raw.length > max ? fail(`the text is longer than ${max} characters`) : ok(raw);
    }
    case 'number': {
      const n = typeof raw === 'string' ? Number(raw.trim().replace(',', '.')) : raw;
      return typeof n === 'number' && Number.isFinite(n) ? ok(n) : fail(AttributeMessages.invalidNumber);
    }
    case 'email':
      return typeof raw === 'string' && isValidEmail(raw) ? ok(raw.trim()) : fail(AttributeMessages.invalidEmail);
    case 'link': {
      const given = typeof raw === 'string' ? { url: raw } : (raw as Partial<LinkValue>);
      if (!given || typeof given.url !== 'string') return fail(AttributeMessages.invalidUrl);
      const url = normalizeUrl(given.url);
      if (!url) return fail(AttributeMessages.invalidUrl);
      const text = typeof given.text === 'string' && given.text.trim() ? given.text.trim().slice(0, 255) : undefined;
      return ok(text ? { url, text } : { url });
    }
    case 'date':
      return typeof raw === 'string' && isValidDate(raw) ? ok(raw) : fail(AttributeMessages.invalidDate);
    case 'date-range': {
      const r = raw as Partial<DateRange>;
      if (!r || typeof r !== 'object' || typeof r.start !== 'string' || typeof r.end !== 'string') return fail(AttributeMessages.invalidDate);
      if (!isValidDate(r.start) || !isValidDate(r.end)) return fail(AttributeMessages.invalidDate);
      if (compareDates(r.end, r.start) < 0) return fail(AttributeMessages.endBeforeStart);
      return ok({ start: r.start, end: r.end });
    }
    case 'checkbox':
      return typeof raw === 'boolean' ? ok(raw) : fail('must be checked or unchecked');
    case 'members': {
      if (!Array.isArray(raw) || !raw.every((id) => Number.isInteger(id) && id > 0)) return fail('choose members');
      const ids = [...new Set(raw as number[])];
      if (settingsOf('members', attribute.settings).multiple === false && ids.length > 1) return fail('choose one member');
      return ok(ids);
    }
    case 'reference': {
      if (!Array.isArray(raw) || !raw.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64)) return fail('choose items');
      return ok([...new Set(raw as string[])]);
    }
    case 'status': {
      const options = settingsOf('status', attribute.settings).options;
      return typeof raw === 'string' && options.some((o) => o.id === raw) ? ok(raw) : fail(AttributeMessages.unknownOption);
    }
    case 'label': {
      const settings = settingsOf('label', attribute.settings);
      const ids = Array.isArray(raw) ? raw : [raw];
      if (!ids.every((id) => typeof id === 'string' && settings.options.some((o) => o.id === id))) return fail(AttributeMessages.unknownOption);
      if (!settings.multiple) return ids.length === 1 ? ok(ids[0]) : fail(AttributeMessages.multipleLabel);
      return ok([...new Set(ids as string[])]);
    }
    case 'attachments': {
      const parsed = z.array(attachmentValue).max(100).safeParse(raw);
      if (parsed.success) return ok(parsed.data);
      // An unsafe address is named as such, so the refusal says what to change.
      return fail(parsed.error.issues.some((issue) => issue.message === AttributeMessages.unsafeUrl) ? AttributeMessages.unsafeUrl : 'not a valid attachment list');
    }
    case 'button':
    case 'custom-id':
    case 'time-tracking':
      return fail('this attribute holds no value');
  }
}

/** True when the value counts as empty (for filters, groups and "hide empty"). */
export function isEmptyValue(value: unknown): boolean {
  return value === null || value === undefined || value === '' || value === false || (Array.isArray(value) && value.length === 0);
}

// ── attribute records ─────────────────────────────────────────────────────────────────────────
const sameName = (a: string | undefined, b: string | undefined) => (a ?? '').trim().toLocaleLowerCase() === (b ?? '').trim().toLocaleLowerCase();

/**
 * "an attribute with the same name and type already exists": among the live attributes of the
 * same board, another one (not this id) with the same kind and the same name (case and surrounding
 * spaces ignored).
 */
export function findDuplicateAttribute<A extends AttributeLike>(candidate: AttributeLike, existing: readonly A[]): A | null {
  for (const other of existing) {
    if (other.deleted_at) continue;
    if (candidate.id !== undefined && other.id === candidate.id) continue;
    if (candidate.board_id !== undefined && other.board_id !== undefined && other.board_id !== candidate.board_id) continue;
    if (other.kind === candidate.kind && sameName(other.name, candidate.name)) return other;
  }
  return null;
}

/** Everything wrong with an attribute someone wants to save, as messages (empty = fine). */
export function attributeProblems(candidate: AttributeLike, existing: readonly AttributeLike[]): string[] {
  const problems: string[] = [];
  if (!isAttributeKind(candidate.kind)) return [AttributeMessages.unknownKind];
  const settings = attributeSettings[candidate.kind].safeParse(candidate.settings ?? {});
  if (!settings.success) for (const issue of settings.error.issues) problems.push(`settings.${issue.path.join('.')}: ${issue.message}`);
  if (findDuplicateAttribute(candidate, existing)) problems.push(AttributeMessages.duplicate);
  if (candidate.kind === 'primary' && existing.some((o) => !o.deleted_at && o.kind === 'primary' && o.id !== candidate.id && o.board_id === candidate.board_id)) {
    problems.push(AttributeMessages.onePrimary);
  }
  return problems;
}

/** A fresh label with the spec's default text colour. */
export function newLabel(id: string, name: string, color = '#E2E4F0'): LabelOption {
  return { id, name, color, textColor: LABEL_DEFAULT_TEXT_COLOR };
}

/** The custom ID shown for the n-th item (1-based) of a board. */
export function customIdText(prefix: string, ordinal: number): string {
  return `${prefix}${ordinal}`;
}
