import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_KINDS } from '../../schema/views';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, newId, teamWithRoles, type TeamFixture } from './sync-fixtures';

/** Views of every kind: `settings: {}` is accepted (defaults), bad settings and unknown kinds are refused. */
describe('folder views: kinds and settings', () => {
  let server: TestServer;
  let t: TeamFixture;
  let b: ReturnType<typeof board>;
  const put = (rec: { id: string; [k: string]: unknown }) => api(server.app, 'PUT', `/api/${t.teamId}/folder-views/${rec.id}`, { token: t.owner.token, body: rec });
  const view = (kind: string, settings: unknown) => ({ id: newId(), board_id: b.id, folder_id: b.id, name: kind, kind, settings, row_version: 1 });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    b = board();
    const made = await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b });
    expect(made.statusCode, made.body).toBe(200);
  });
  afterAll(() => server.close());

  it('accepts a view of each kind saved with settings {}', async () => {
    for (const kind of VIEW_KINDS) {
      const res = await put(view(kind, {}));
      expect(res.statusCode, kind).toBe(200);
      expect(res.json().data ?? res.json()).toMatchObject({ kind });
    }
  });

  it('accepts good settings of each new kind', async () => {
    expect((await put(view('calendar', { mode: 'week', date_attribute_id: 'due' }))).statusCode).toBe(200);
    expect((await put(view('gantt', { zoom: 'quarter', start_attribute_id: 'a', end_attribute_id: 'b' }))).statusCode).toBe(200);
    expect((await put(view('list', { group_by: null }))).statusCode).toBe(200);
    expect((await put(view('chart', { chart_type: 'donut', attribute_ids: ['a', 'b'], aggregate: 'sum', top_20: true }))).statusCode).toBe(200);
  });

  it('refuses bad settings with a 422 naming the key', async () => {
    const cases: [string, unknown, string][] = [
      ['calendar', { mode: 'year' }, 'settings.mode'],
      ['gantt', { zoom: 'decade' }, 'settings.zoom'],
      ['chart', { attribute_ids: ['1', '2', '3', '4', '5', '6', '7', '8'] }, 'settings.attribute_ids'],
      ['chart', { chart_type: 'radar' }, 'settings.chart_type'],
      ['list', { group_by: 5 }, 'settings.group_by'],
      ['table', { sort: 'name' }, 'settings.sort'],
    ];
    for (const [kind, settings, key] of cases) {
      const res = await put(view(kind, settings));
      expect(res.statusCode, `${kind} ${JSON.stringify(settings)}`).toBe(422);
      expect(JSON.stringify(res.json())).toContain(key);
    }
  });

  it('refuses a kind the app cannot show, and an edit into bad settings', async () => {
    const res = await put(view('timeline', {}));
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json())).toContain('kind');
    const cal = view('calendar', {});
    expect((await put(cal)).statusCode).toBe(200);
    expect((await put({ ...cal, settings: { mode: 'fortnight' }, row_version: 2 })).statusCode).toBe(422);
    expect((await put({ ...cal, settings: { mode: 'day' }, row_version: 2 })).statusCode).toBe(200);
  });
});
