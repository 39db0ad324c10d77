/**
 * The validate directive's rules (shell.md §5, workspace.md §5) as pure functions.
 * Empty input is valid for every rule except `required`.
 */

// The HTML living standard's e-mail grammar, plus a dot in the domain (people type "a@b" by mistake).
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

/** Splits a list of e-mails separated by commas, spaces or new lines. */
export function splitEmails(value: string): string[] {
  return value.split(/[\s,]+/).filter((part) => part.length > 0);
}

export function isEmailList(value: string): boolean {
  const emails = splitEmails(value);
  return emails.length > 0 && emails.every(isEmail);
}

/** An absolute http(s) URL with a host. */
export function isUrl(value: string): boolean {
  const text = value.trim();
  if (/\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export type RuleName = 'required' | 'email' | 'emails' | 'url';
export interface MinLengthRule { minLength: number }
export interface CustomRule { name: string; test: (value: string) => boolean }
export type Rule = RuleName | MinLengthRule | CustomRule;

export type ValidationResult = { valid: true } | { valid: false; rule: string };

export function ruleName(rule: Rule): string {
  if (typeof rule === 'string') return rule;
  if ('minLength' in rule) return 'minLength';
  return rule.name;
}

function passes(rule: Rule, value: string): boolean {
  if (rule === 'required') return value.trim().length > 0;
  if (rule === 'email') return isEmail(value);
  if (rule === 'emails') return isEmailList(value);
  if (rule === 'url') return isUrl(value);
  if ('minLength' in rule) return Array.from(value).length >= rule.minLength;
  return rule.test(value);
}

/** Checks rules in order and reports the first that fails. */
export function validateValue(value: string | null | undefined, rules: readonly Rule[]): ValidationResult {
  const text = value ?? '';
  const empty = text.trim().length === 0;
  for (const rule of rules) {
    if (empty && rule !== 'required') continue;
    if (!passes(rule, text)) return { valid: false, rule: ruleName(rule) };
  }
  return { valid: true };
}
