import { describe, expect, it } from 'vitest';
import { isEmail, isEmailList, isUrl, splitEmails, validateValue } from '../../src/ui/validators';

describe('validators', () => {
  it('accepts ordinary e-mail addresses and rejects broken ones', () => {
    for (const ok of ['ada@example.com', 'a.b+tag@sub.example.co', ' ada@example.com ']) expect(isEmail(ok), ok).toBe(true);
    for (const bad of ['ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com', 'ada@exa_mple.com', 'ada@@example.com']) {
      expect(isEmail(bad), bad).toBe(false);
    }
  });

  it('splits e-mail lists on commas, spaces and new lines', () => {
    expect(splitEmails('a@x.io, b@x.io\nc@x.io  d@x.io,,')).toEqual(['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io']);
    expect(isEmailList('a@x.io,b@x.io\r\nc@x.io')).toBe(true);
    expect(isEmailList('a@x.io; b@x.io')).toBe(false);
    expect(isEmailList('a@x.io, nope')).toBe(false);
  });

  it('accepts http(s) URLs only', () => {
    expect(isUrl('https://example.com/hooks?x=1')).toBe(true);
    expect(isUrl('http://localhost:8080/a')).toBe(true);
    expect(isUrl('example.com')).toBe(false);
    expect(isUrl('javascript:alert(1)')).toBe(false);
    expect(isUrl('ftp://example.com')).toBe(false);
    expect(isUrl('https://exa mple.com')).toBe(false);
  });

  it('treats empty input as valid unless required', () => {
    expect(validateValue('', ['email'])).toEqual({ valid: true });
    expect(validateValue('   ', ['url', { minLength: 8 }])).toEqual({ valid: true });
    expect(validateValue(null, ['emails'])).toEqual({ valid: true });
    expect(validateValue('', ['required', 'email'])).toEqual({ valid: false, rule: 'required' });
    expect(validateValue('  ', ['required'])).toEqual({ valid: false, rule: 'required' });
  });

  it('reports the first failing rule', () => {
    expect(validateValue('abc', ['required', { minLength: 8 }, 'email'])).toEqual({ valid: false, rule: 'minLength' });
    expect(validateValue('abcdefgh', ['required', { minLength: 8 }, 'email'])).toEqual({ valid: false, rule: 'email' });
    expect(validateValue('abcd@ef.gh', ['required', { minLength: 8 }, 'email'])).toEqual({ valid: true });
  });

  it('counts characters, not UTF-16 units, for min length', () => {
    expect(validateValue('😀😀😀😀', [{ minLength: 5 }])).toEqual({ valid: false, rule: 'minLength' });
    expect(validateValue('😀😀😀😀😀', [{ minLength: 5 }])).toEqual({ valid: true });
  });

  it('runs custom rules by name', () => {
    const deleteWord = { name: 'typeDelete', test: (v: string) => v === 'DELETE' };
    expect(validateValue('delete', [deleteWord])).toEqual({ valid: false, rule: 'typeDelete' });
    expect(validateValue('DELETE', [deleteWord])).toEqual({ valid: true });
  });
});
