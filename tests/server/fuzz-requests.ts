import fc from 'fast-check';

/**
 * Generators of malformed API requests for tests/server/fuzz.test.ts: every route of the server,
 * its path parameters, query, body, content type and credentials bent in the ways clients and
 * attackers bend them. A request starts from a valid call (the template) and is spoiled in one
 * or more places, so the spoiled part reaches the code behind the first checks.
 */

export interface Template {
  method: string;
  /** The route pattern as registered (`/api/:teamId/items/:id`). */
  pattern: string;
  /** A valid value for each parameter segment of the pattern, by position. */
  params: Map<number, string>;
  /** A valid query string (with `?`), or ''. */
  query: string;
  /** A valid body (or undefined). */
  body: unknown;
}

export type Credentials = 'owner' | 'restricted-member' | 'guest' | 'anonymous' | 'garbage-token';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The raw payload (string or bytes); undefined sends none. */
  payload?: string | Buffer;
  credentials: Credentials;
  /** The Authorization header sent with `garbage-token`. */
  garbageAuthorization: string;
  /** The route asked: "METHOD pattern". */
  route: string;
  /** What was spoiled, for the failure report. */
  label: string;
}

const ids = fc.constantFrom(
  '', '0', '-1', '00', '1.5', '1e9', '0x10', '99999999999', '2147483648', '9007199254740993', '-0',
  'null', 'undefined', 'NaN', 'Infinity', 'true', '[]', '{}', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  '..', '.', '%2e%2e', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '%00', '%', '%zz', '%E0%A4%A', '%C0%AE', "'%20or%201%3D1--", '%3Cscript%3E', '%F0%9F%98%80',
  'a'.repeat(300), 'b'.repeat(5000),
);
const badSegment = fc.oneof(ids, fc.string({ maxLength: 40 }).map(encodeURIComponent), fc.integer().map(String), fc.bigInt().map(String));

const queryKeys = fc.constantFrom('board_id', 'after', 'item_ids', 'item_ids[]', 'item_id', 'resource_type', 'resource_id', 'permanent', 'name', 'get', '__proto__', 'constructor', 'board_id[]', 'after[0]', 'a[b][c]');
const queryValue = fc.oneof(ids, fc.string({ maxLength: 30 }).map(encodeURIComponent), fc.integer().map(String), fc.constant('x'.repeat(10_000)));
const badQuery = fc.oneof(
  fc.array(fc.tuple(queryKeys, queryValue), { minLength: 1, maxLength: 6 }).map((pairs) => '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  fc.constantFrom('?%zz=%', '?&&&', '?=', '?after=1&after=2', '?after=-5', '?after=1.5', '?after=99999999999999999999999', '?board_id=&board_id=', '?item_ids=' + 'i,'.repeat(2000), '?' + 'x'.repeat(8000), '?after=0x10', '?after=%00'),
);

/** JSON text nested `depth` levels: arrays, objects or a mix. */
function nested(depth: number, kind: 'array' | 'object' | 'mixed'): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const asArray = kind === 'array' || (kind === 'mixed' && i % 2 === 0);
    open += asArray ? '[' : '{"a":';
    close = (asArray ? ']' : '}') + close;
  }
  return open + '1' + close;
}
const deep = fc.tuple(fc.integer({ min: 20, max: 20_000 }), fc.constantFrom('array', 'object', 'mixed') as fc.Arbitrary<'array' | 'object' | 'mixed'>).map(([d, k]) => nested(d, k));
const huge = fc.tuple(fc.integer({ min: 10_000, max: 1_200_000 }), fc.constantFrom('x', 'é', '😀', '\u0000', '<', '"')).map(([n, c]) => JSON.stringify(c.repeat(Math.ceil(n / c.length))));
const protoKeys = fc.constantFrom(
  '{"__proto__":{"isAdmin":true,"role":"owner"}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":{"__proto__":{"x":1}}}',
  '[{"__proto__":null}]',
  '{"prototype":1,"toString":2,"hasOwnProperty":3,"valueOf":{}}',
);
/** A JSON value text of any kind, small. */
const anyJson = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null');
/** A spoiled field value: wrong type, huge, deep, prototype-shaped. */
const spoiledValue = fc.oneof(
  { weight: 6, arbitrary: anyJson },
  { weight: 2, arbitrary: fc.constantFrom('null', 'true', '-1', '0', '1e308', '-1e308', '""', '[]', '{}', '"__proto__"', '9007199254740993', '1.5', '"2026-13-45T99:99:99Z"', '"javascript:alert(1)"', '"\\u0000"') },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: huge },
  { weight: 1, arbitrary: protoKeys },
);

const malformedJson = fc.constantFrom('{', '{"a":', 'nul', '[1,]', '\u0000', '"unterminated', '{"a":1}{"b":2}', '', ' ', '{"a":1,}', "{'a':1}", '[', ']', 'NaN', '{"a":undefined}', '\uFEFF{}', '{"a":"\\ud800"}');

/** A body spoiled field by field: a field removed, replaced or added, several times. */
function spoilObject(base: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = Object.keys(base);
  const edit = fc.oneof(
    fc.record({ op: fc.constant('drop' as const), key: keys.length ? fc.constantFrom(...keys) : fc.constant('id'), value: fc.constant('') }),
    fc.record({ op: fc.constant('set' as const), key: keys.length ? fc.constantFrom(...keys) : fc.constant('id'), value: spoiledValue }),
    fc.record({ op: fc.constant('add' as const), key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'folder_id', 'team_id', 'created_by', 'deleted_at', 'row_version', 'extra'), fc.string({ maxLength: 12 })), value: spoiledValue }),
  );
  return fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => {
    // Built as text, so keys such as __proto__ stay own keys of the JSON the server receives.
    const fields = new Map<string, string>(keys.map((k) => [k, JSON.stringify(base[k]) ?? 'null']));
    for (const e of edits) {
      if (e.op === 'drop') fields.delete(e.key);
      else fields.set(e.key, e.value);
    }
    return '{' + [...fields].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',') + '}';
  });
}

interface BodyChoice {
  payload?: string | Buffer;
  contentType?: string;
  label: string;
}

function bodyFor(template: Template): fc.Arbitrary<BodyChoice> {
  const base = template.body;
  const json = (label: string) => (payload: string): BodyChoice => ({ payload, contentType: 'application/json', label });
  const options: fc.WeightedArbitrary<BodyChoice>[] = [
    { weight: 2, arbitrary: fc.constant({ label: 'no body' }) },
    { weight: 1, arbitrary: fc.constant({ payload: '', contentType: 'application/json', label: 'empty json body' }) },
    { weight: 3, arbitrary: anyJson.map(json('random json')) },
    { weight: 2, arbitrary: deep.map(json('deep nesting')) },
    { weight: 1, arbitrary: huge.map(json('huge string')) },
    { weight: 2, arbitrary: protoKeys.map(json('prototype keys')) },
    { weight: 2, arbitrary: malformedJson.map(json('malformed json')) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constant<BodyChoice>({ payload: 'hello', contentType: 'text/plain', label: 'text/plain' }),
        fc.constant<BodyChoice>({ payload: 'a=1&b[c]=2&__proto__[x]=1', contentType: 'application/x-www-form-urlencoded', label: 'form body' }),
        fc.constant<BodyChoice>({ payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc\r\n--xyz--\r\n', contentType: 'multipart/form-data; boundary=xyz', label: 'multipart' }),
        fc.constant<BodyChoice>({ payload: 'garbage', contentType: 'multipart/form-data', label: 'multipart without boundary' }),
        fc.constant<BodyChoice>({ payload: '--xyz\r\nContent-Disposition: form-data; name="photo"\r\n\r\n', contentType: 'multipart/form-data; boundary=xyz', label: 'truncated multipart' }),
        fc.uint8Array({ maxLength: 64 }).map((b): BodyChoice => ({ payload: Buffer.from(b), contentType: 'application/octet-stream', label: 'bytes' })),
        fc.constant<BodyChoice>({ payload: '<a/>', contentType: 'application/xml', label: 'xml' }),
        fc.constant<BodyChoice>({ payload: '{}', contentType: 'application/json; charset=utf-16', label: 'json utf-16 charset' }),
        fc.constant<BodyChoice>({ payload: '{}', contentType: 'application/json, text/plain', label: 'two content types' }),
        fc.constant<BodyChoice>({ payload: '{}', contentType: ';;;', label: 'broken content type' }),
      ),
    },
  ];
  if (base && typeof base === 'object' && !Array.isArray(base)) {
    options.push({ weight: 8, arbitrary: spoilObject(base as Record<string, unknown>).map(json('spoiled fields')) });
  } else if (Array.isArray(base) && base[0] && typeof base[0] === 'object') {
    options.push({ weight: 8, arbitrary: spoilObject(base[0] as Record<string, unknown>).map((one) => json('spoiled list entry')(`[${one}]`)) });
    options.push({ weight: 1, arbitrary: fc.integer({ min: 1001, max: 3000 }).map((n) => json('over-long list')(`[${Array(n).fill('{}').join(',')}]`)) });
  }
  if (base !== undefined) options.push({ weight: 2, arbitrary: fc.constant(json('valid body')(JSON.stringify(base))) });
  return fc.oneof(...options);
}

/** The path of the template, each parameter kept or spoiled. */
function pathFor(template: Template): fc.Arbitrary<{ path: string; spoiled: boolean }> {
  const segments = template.pattern.split('/');
  const parts = segments.map((segment, i) =>
    template.params.has(i) ? fc.oneof({ weight: 3, arbitrary: fc.constant(template.params.get(i)!) }, { weight: 1, arbitrary: badSegment }) : fc.constant(segment),
  );
  return fc.tuple(...parts).map((values) => ({ path: values.join('/'), spoiled: values.some((v, i) => template.params.has(i) && v !== template.params.get(i)) }));
}

const extraHeaders = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Record<string, string>>({}) },
  {
    weight: 1,
    arbitrary: fc.record({
      'x-idempotency-key': fc.oneof(fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')), fc.constant('k'.repeat(5000))),
      'x-socket-id': fc.constantFrom('', '1.2', 'x', '__proto__', '9'.repeat(400)),
      'x-authorization-password': fc.constantFrom('', '%', '%zz', 'p'.repeat(3000), 'caf%C3%A9'),
    }),
  },
);

/** One malformed request against a template: path, query, body, headers and credentials. */
export function requestArbitrary(templates: readonly Template[]): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...templates).chain((template) =>
    fc
      .record({
        path: pathFor(template),
        query: fc.oneof({ weight: 2, arbitrary: fc.constant(template.query) }, { weight: 1, arbitrary: badQuery }),
        body: bodyFor(template),
        headers: extraHeaders,
        credentials: fc.constantFrom<Credentials>('owner', 'owner', 'owner', 'owner', 'owner', 'owner', 'owner', 'owner', 'restricted-member', 'guest', 'anonymous', 'anonymous', 'garbage-token'),
        garbageAuthorization: fc.constantFrom('Bearer not-a-token', 'Bearer ', 'Bearer', 'Basic dXNlcjpwYXNz', `Bearer ${'x'.repeat(10_000)}`, 'Bearer a b c', 'bearer %00', 'Token abc', 'Bearer ééé'),
      })
      .map(({ path, query, body, headers, credentials, garbageAuthorization }): FuzzRequest => {
        const all: Record<string, string> = { ...headers };
        if (body.contentType) all['content-type'] = body.contentType;
        const spoiled = [path.spoiled ? 'path' : null, query !== template.query ? 'query' : null, body.label].filter(Boolean).join(', ');
        return { method: template.method, url: path.path + query, headers: all, payload: body.payload, credentials, garbageAuthorization, route: `${template.method} ${template.pattern}`, label: `${template.method} ${template.pattern}: ${spoiled}` };
      }),
  );
}

/** Lone surrogates, as JSON.stringify writes them (\\ud800): valid JSON, unstorable text. */
const loneSurrogate = fc.constantFrom('\ud800', '\udfff', 'a\udbff', '\udc00b', 'x\ud800\ud800y', '\ude00\ud83d', '\ud83d');
/** Numbers a path id may hold that PostgreSQL's integer cannot. */
const bigId = fc.constantFrom('2147483648', '2147483649', '4294967296', '9007199254740991', '99999999999', '2147483648000', '3000000000');
const batchBadId = fc.constantFrom('%00', 'a%00b', '%00%00', '%ED%A0%80', '%C0%80', '%F0', 'a%2Fb', '%20', 'x'.repeat(65), 'a.b.c', '%2e%2e', '%00.%00');

export interface N11Case {
  kind: 'surrogate' | 'big-id' | 'batch-route';
  method: string;
  url: string;
  payload?: string;
  /** The body field holding the surrogate (dotted path), for `surrogate`. */
  field?: string;
}

/** Every string field of a JSON value, as [dotted path, key or value]. */
function stringPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, prefix ? `${prefix}.${i}` : String(i)));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [...(typeof v === 'string' ? [prefix ? `${prefix}.${k}` : k] : []), ...stringPaths(v, prefix ? `${prefix}.${k}` : k)]);
  return [];
}

function withValueAt(value: unknown, path: string[], text: string): unknown {
  if (path.length === 0) return text;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (String(i) === head ? withValueAt(v, rest, text) : v));
  const obj = value as Record<string, unknown>;
  return { ...obj, [head!]: withValueAt(obj[head!], rest, text) };
}

const urlOf = (template: Template, replace?: { index: number; value: string }) =>
  template.pattern
    .split('/')
    .map((segment, i) => (replace && replace.index === i ? replace.value : template.params.get(i) ?? segment))
    .join('/') + template.query;

/**
 * The inputs of security review N11 over every route: a lone surrogate put into one string of a
 * route's valid body, a numeric path parameter replaced by one beyond 32 bits, or a batch request
 * whose route id decodes to a NUL or to no client id.
 */
export function n11Case(templates: readonly Template[], w: { teamId: number; records: Record<string, { id: string }> }): fc.Arbitrary<N11Case> {
  const withStrings = templates.filter((t) => t.method !== 'GET' && t.body && typeof t.body === 'object' && stringPaths(t.body).length > 0 && !t.pattern.startsWith('/api/auth/logout'));
  const withIds = templates.filter((t) => [...t.params.values()].some((v) => /^\d+$/.test(v)));
  const surrogate = fc
    .tuple(fc.constantFrom(...withStrings), fc.nat(), loneSurrogate)
    .map(([t, n, text]): N11Case => {
      const paths = stringPaths(t.body);
      const field = paths[n % paths.length]!;
      return { kind: 'surrogate', method: t.method, url: urlOf(t), payload: JSON.stringify(withValueAt(t.body, field.split('.'), text)), field };
    });
  const big = fc.tuple(fc.constantFrom(...withIds), fc.nat(), bigId).map(([t, n, id]): N11Case => {
    const numeric = [...t.params.entries()].filter(([, v]) => /^\d+$/.test(v));
    const [index] = numeric[n % numeric.length]!;
    return { kind: 'big-id', method: t.method, url: urlOf(t, { index, value: id }), payload: t.body === undefined ? undefined : JSON.stringify(t.body) };
  });
  const collections = Object.keys(w.records).map((c) => c.replace(/_/g, '-') + 's');
  const batch = fc
    .tuple(fc.array(fc.tuple(fc.constantFrom('put', 'delete', 'post'), fc.constantFrom(...collections, 'items', 'folders', 'values'), batchBadId), { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(([requests, transaction]): N11Case => ({
      kind: 'batch-route',
      method: 'POST',
      url: `/api/${w.teamId}/batch`,
      payload: JSON.stringify({ ...(transaction ? { transaction: 'n11' } : {}), requests: requests.map(([method, collection, id]) => ({ method, route: `${collection}/${id}${method === 'post' ? '/restore' : ''}`, ...(method === 'put' ? { payload: { id: decodeSafe(id), name: 'x' } } : {}) })) }),
    }));
  return fc.oneof(surrogate, big, batch);
}

const decodeSafe = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};
