import { describe, expect, it } from 'vitest';
import { classify, sortProblems } from '../../src/screens/field-problems';

/** Issue #17 part 6: a 422's problems sorted to their fields and classified for plain words (src/screens/field-errors.ts). */
describe('field problems of a 422', () => {
  it('sorts each problem to its shown field, the first one per field', () => {
    const sorted = sortProblems(['email: is required', 'password: must be at least 8 characters', 'password: must be at most 1024 characters'], new Set(['email', 'password', 'name']));
    expect(sorted).toEqual({ fields: { email: { kind: 'required' }, password: { kind: 'min', n: 8 } }, rest: [] });
  });

  it('keeps problems of fields the form does not show, and nested paths go to their top field', () => {
    const sorted = sortProblems(['settings.colour: must be a string', 'locale: must be a language tag such as en-US', 'no field here'], new Set(['settings']));
    expect(sorted.fields).toEqual({ settings: { kind: 'other', text: 'Must be a string.' } });
    expect(sorted.rest).toEqual([
      { path: 'locale', problem: { kind: 'language' } },
      { path: '', problem: { kind: 'other', text: 'No field here.' } },
    ]);
  });

  it('classifies the server’s and zod’s wordings', () => {
    expect(classify('must be a valid email address')).toEqual({ kind: 'email' });
    expect(classify('Invalid email address')).toEqual({ kind: 'email' });
    expect(classify('Too small: expected string to have >=1 characters')).toEqual({ kind: 'min', n: 1 });
    expect(classify('must be at most 255 characters')).toEqual({ kind: 'max', n: 255 });
    expect(classify('must be an IANA time zone such as Europe/Belgrade')).toEqual({ kind: 'timezone' });
    expect(classify('Invalid input: expected string, received undefined')).toEqual({ kind: 'required' });
    expect(classify('is already taken.')).toEqual({ kind: 'other', text: 'Is already taken.' });
  });
});
