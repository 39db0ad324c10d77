/**
 * Deep equality with JSON semantics, the one used wherever two copies of a synced record are
 * compared (the sync worker's "did this save change anything", the field merge of decision 0345):
 * object key order does not matter, and null, undefined and a missing field are the same (a copy
 * goes through JSON on its way to and from the server, and a field the server fills with null is
 * not an edit). NaN equals NaN.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined) return b === null || b === undefined;
  if (b === null || b === undefined) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return typeof a === 'number' && typeof b === 'number' ? Number.isNaN(a) && Number.isNaN(b) : false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameValue(v, bb[i]));
  }
  return sameFields(a as Record<string, unknown>, b as Record<string, unknown>);
}

/** sameValue over two objects' fields, leaving out those in `ignored`. */
export function sameFields(a: Record<string, unknown>, b: Record<string, unknown>, ignored: ReadonlySet<string> = NONE): boolean {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (ignored.has(key)) continue;
    if (!sameValue(a[key], b[key])) return false;
  }
  return true;
}

const NONE: ReadonlySet<string> = new Set();
