/**
 * Seeds a board of N items × 10 attributes (default 10,000) through the real server API, the way
 * any client would: the board, its attributes, then items and values with save-multiple
 * (PUT /api/{teamId}/{route} with an array), in chunks.
 *
 *   npx tsx bench/board-10k.ts <baseUrl> <email> <password> [items=10000]
 *
 * Used by bench/board-open.ts; prints the seeding rate.
 */
export const ATTRIBUTE_SPECS = [
  { key: 'p', name: 'Item', kind: 'primary', settings: {} },
  { key: 'status', name: 'Status', kind: 'status', settings: { options: [{ id: 'todo', name: 'To do', color: '#DDDDDD' }, { id: 'doing', name: 'Doing', color: '#FFE08A' }, { id: 'done', name: 'Done', color: '#A8E6A1' }] } },
  { key: 'owner', name: 'Owner', kind: 'text', settings: {} },
  { key: 'points', name: 'Points', kind: 'number', settings: {} },
  { key: 'due', name: 'Due', kind: 'date', settings: {} },
  { key: 'ok', name: 'Checked', kind: 'checkbox', settings: {} },
  { key: 'mail', name: 'Contact', kind: 'email', settings: {} },
  { key: 'tag', name: 'Tag', kind: 'label', settings: { options: [{ id: 'red', name: 'Red', color: '#F4B4B4' }, { id: 'blue', name: 'Blue', color: '#B4C8F4' }] } },
  { key: 'link', name: 'Link', kind: 'link', settings: {} },
  { key: 'notes', name: 'Notes', kind: 'long-text', settings: {} },
] as const;

/** The seeded value of attribute `key` for item i (also used by bench/views-list-chart.ts for in-memory boards). */
export function valueFor(key: string, i: number): unknown {
  switch (key) {
    case 'status':
      return ['todo', 'doing', 'done'][i % 3];
    case 'owner':
      return `Person ${i % 37}`;
    case 'points':
      return (i * 7) % 100;
    case 'due':
      return `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    case 'ok':
      return i % 2 === 0;
    case 'mail':
      return `person${i % 37}@example.com`;
    case 'tag':
      return i % 5 === 0 ? 'red' : 'blue';
    case 'link':
      return { url: `https://example.com/${i}` };
    case 'notes':
      return `Notes for item ${i}: a longer text that wraps.`;
    default:
      return null;
  }
}

async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

export async function login(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(base + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password, grantType: 'password' }) });
  const body = await res.json();
  if (!res.ok) throw new Error(`login: ${res.status}`);
  return body.access_token;
}

export async function seedBoard(base: string, token: string, teamId: number, items = 10_000, chunk = 1000): Promise<{ boardId: string; seconds: number; records: number }> {
  const started = performance.now();
  const boardId = `bench${Date.now().toString(36)}`;
  await call(base, token, 'PUT', `/api/${teamId}/folders/${boardId}`, { id: boardId, board_id: boardId, parent_id: null, name: `Bench ${items}`, row_version: 1 });
  const attrs = ATTRIBUTE_SPECS.map((a, i) => ({ id: `${boardId}${a.key}`, board_id: boardId, folder_id: boardId, name: a.name, kind: a.kind, settings: a.settings, position: i, row_version: 1 }));
  await call(base, token, 'PUT', `/api/${teamId}/attributes`, attrs);
  let records = 1 + attrs.length;
  for (let start = 0; start < items; start += chunk) {
    const batch = [];
    for (let i = start; i < Math.min(items, start + chunk); i++) batch.push({ id: `${boardId}i${i}`, board_id: boardId, folder_id: boardId, name: `Item ${i}`, position: i + 1, row_version: 1 });
    await call(base, token, 'PUT', `/api/${teamId}/items`, batch);
    records += batch.length;
    for (const spec of ATTRIBUTE_SPECS) {
      if (spec.kind === 'primary') continue;
      const values = batch.map((item, j) => ({ id: `${item.id}.${boardId}${spec.key}`, board_id: boardId, item_id: item.id, attribute_id: `${boardId}${spec.key}`, value: valueFor(spec.key, start + j), row_version: 1 }));
      await call(base, token, 'PUT', `/api/${teamId}/values`, values);
      records += values.length;
    }
  }
  return { boardId, seconds: (performance.now() - started) / 1000, records };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base, email, password, n] = process.argv.slice(2);
  const token = await login(base!, email!, password!);
  const mine = await call(base!, token, 'GET', '/api/me/workspaces');
  const teamId = (mine.data ?? mine)[0].id;
  const result = await seedBoard(base!, token, teamId, Number(n ?? 10_000));
  console.log(`seeded board ${result.boardId}: ${result.records} records in ${result.seconds.toFixed(1)} s (${Math.round(result.records / result.seconds)} records/s)`);
}
