/**
 * The pure half of a form's 422 (src/screens/field-errors.ts words it): the server lists its
 * problems as "field: message" (server/http/errors.ts); each is sorted to a field the form shows,
 * or to the rest, and its message classified so the app can say it in plain, translated words.
 */
export type Problem =
  | { kind: 'required' }
  | { kind: 'email' }
  | { kind: 'min'; n: number }
  | { kind: 'max'; n: number }
  | { kind: 'timezone' }
  | { kind: 'language' }
  | { kind: 'url' }
  | { kind: 'other'; text: string };

export function classify(message: string): Problem {
  const t = message.trim();
  if (t === 'is required' || /^Required$/i.test(t) || /expected .*, received undefined/i.test(t)) return { kind: 'required' };
  if (t === 'must be a valid email address' || /^Invalid email/i.test(t)) return { kind: 'email' };
  let m = /^must be at least (\d+) characters?$/.exec(t) ?? /^Too small: expected string to have >=(\d+) characters?$/.exec(t);
  if (m) return { kind: 'min', n: Number(m[1]) };
  m = /^must be at most (\d+) characters?$/.exec(t) ?? /^Too big: expected string to have <=(\d+) characters?$/.exec(t);
  if (m) return { kind: 'max', n: Number(m[1]) };
  if (t.startsWith('must be an IANA time zone')) return { kind: 'timezone' };
  if (t.startsWith('must be a language tag') || t.startsWith('must be one of the supported languages')) return { kind: 'language' };
  if (/^must be a valid (url|address)/i.test(t) || /^Invalid url/i.test(t)) return { kind: 'url' };
  return { kind: 'other', text: t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.') };
}

export interface SortedProblems {
  fields: Record<string, Problem>;
  rest: Array<{ path: string; problem: Problem }>;
}

/** Sorts "path: message" items to the shown fields (first problem of each) and the rest. */
export function sortProblems(list: readonly string[], shown: ReadonlySet<string>): SortedProblems {
  const fields: Record<string, Problem> = {};
  const rest: SortedProblems['rest'] = [];
  for (const item of list) {
    const colon = item.indexOf(': ');
    const path = colon > 0 ? item.slice(0, colon) : '';
    const problem = classify(colon > 0 ? item.slice(colon + 2) : item);
    const name = path.split('.')[0] ?? '';
    if (name && shown.has(name)) fields[name] ??= problem;
    else rest.push({ path, problem });
  }
  return { fields, rest };
}
