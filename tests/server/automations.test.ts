import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTOBOT_USER_ID, dateInZone, addDays, zonedTimeToUtc, type AutomationRun, type AutomationUsage } from '../../schema/automations';
import type { Notification } from '../../schema/notifications';
import { valueIdFor } from '../../schema/records';
import { runAutomation, type RunPayload } from '../../server/automations/run';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { issueTokens } from '../../server/auth/tokens';
import { startReceiver } from './hooks-receiver';
import { addMember, attribute, board, createTeam, folder, item, newId, value, type SignedIn } from './sync-fixtures';

/**
 * The automation runner against the real server (PGlite, and PostgreSQL with TEST_DATABASE_URL):
 * writes by people → domain events → the `automations` consumer → run jobs that write as Autobot
 * through the save path. Exactly once per event, the loop guard, date triggers on the server's
 * (moved) clock, the monthly limit at 80 % / 100 % and its reset on the 1st.
 */

describe('automations runner', () => {
  let server: TestServer;
  let teamId: number;
  let alice: SignedIn; // owner
  let bob: SignedIn; // full member
  let rita: SignedIn; // restricted member

  async function put(route: string, body: Record<string, unknown>, who: SignedIn = alice) {
    const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: who.token, body });
    expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
    return res.json().data as Record<string, any>;
  }
  async function stored(collection: string, id: string) {
    const row = await server.ctx.db.selectFrom('records').select(['data', 'row_version', 'created_by']).where('collection', '=', collection).where('id', '=', id).executeTakeFirst();
    return row ? ({ ...(row.data as Record<string, any>), _created_by: row.created_by } as Record<string, any>) : null;
  }
  const drain = () => server.ctx.jobs.drain();
  /** Moves the server's clock and signs everyone in again (access tokens expire meanwhile). */
  async function advance(ms: number) {
    server.advance(ms);
    for (const who of [alice, bob, rita]) who.token = (await issueTokens(server.ctx.db, who.user.id, server.ctx.now())).access_token;
  }
  async function runs(boardId: string, automationId?: string): Promise<AutomationRun[]> {
    const res = await api(server.app, 'GET', `/api/${teamId}/automations/runs?board_id=${boardId}${automationId ? `&automation_id=${automationId}` : ''}&limit=100`, { token: alice.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }
  let order = 0;
  function automation(boardId: string, fields: Record<string, unknown>) {
    return { id: newId(), board_id: boardId, name: 'Rule', enabled: true, conditions: [], match: 'all', position: order++, row_version: 1, ...fields };
  }

  /** A board with a Status attribute (Todo, Doing, Done), a Done? checkbox, People, Due date and an Archive folder. */
  async function setup(name = 'Board') {
    const b = board({ name });
    const archive = folder(b.id, { name: 'Archive' });
    const status = attribute(b.id, {
      name: 'Status',
      kind: 'status',
      settings: { options: ['Todo', 'Doing', 'Done', 'S3', 'S4', 'S5', 'S6'].map((n) => ({ id: n.toLowerCase(), name: n, color: '#E2E4F0' })) },
    });
    const checked = attribute(b.id, { name: 'Checked', kind: 'checkbox' });
    const people = attribute(b.id, { name: 'People', kind: 'members' });
    const due = attribute(b.id, { name: 'Due', kind: 'date' });
    const notes = attribute(b.id, { name: 'Notes', kind: 'text' });
    const button = attribute(b.id, { name: 'Approve', kind: 'button' });
    await put('folders', b);
    await put('folders', archive);
    for (const a of [status, checked, people, due, notes, button]) await put('attributes', a);
    await drain();
    return { b, archive, status, checked, people, due, notes, button };
  }

  beforeAll(async () => {
    // The webhook action posts to a receiver on this machine: private targets allowed for the test.
    server = await createTestServer({ config: { webhooks: { allowPrivateTargets: true } } as never });
    alice = await createUserWithToken(server.ctx, { name: 'Alice' });
    bob = await createUserWithToken(server.ctx, { name: 'Bob' });
    rita = await createUserWithToken(server.ctx, { name: 'Rita' });
    teamId = await createTeam(server.ctx, alice.user.id);
    await addMember(server.ctx, teamId, bob.user.id, 'full-member');
    await addMember(server.ctx, teamId, rita.user.id, 'restricted-member');
  });
  afterAll(() => server?.close());

  it('saves an incomplete automation disabled, and only people who manage automations may save one', async () => {
    const { b, status } = await setup();
    const draft = await put('automations', automation(b.id, { trigger: { type: 'value_changed', attribute_id: status.id, to: 'done' }, actions: [{ type: 'move_to_folder' }] }));
    expect(draft.enabled, 'an incomplete automation is stored switched off').toBe(false);
    const gone = await put('automations', automation(b.id, { trigger: { type: 'value_changed', attribute_id: 'nope', to: 'done' }, actions: [{ type: 'add_comment', text: 'x' }] }));
    expect(gone.enabled, 'an attribute that is not on the board').toBe(false);
    const ok = await put('automations', automation(b.id, { trigger: { type: 'item_created' }, actions: [{ type: 'add_comment', text: 'Welcome' }] }));
    expect(ok.enabled).toBe(true);
    const denied = automation(b.id, { trigger: { type: 'item_created' }, actions: [] });
    const refused = await api(server.app, 'PUT', `/api/${teamId}/automations/${denied.id}`, { token: rita.token, body: denied });
    expect(refused.statusCode, `a restricted member may not manage automations: ${refused.body}`).toBe(403);
    await put('automations', { ...ok, enabled: false, row_version: ok.row_version + 1 });
  });

  it('"when Status changes to Done, move to Archive" moves the item as Autobot, once per event', async () => {
    const { b, archive, status } = await setup();
    const rule = await put('automations', automation(b.id, { name: 'Archive done', trigger: { type: 'value_changed', attribute_id: status.id, to: 'done' }, actions: [{ type: 'move_to_folder', folder_id: archive.id }] }));
    const task = item(b.id, { name: 'Ship' });
    await put('items', task, bob);
    await put('values', value(b.id, task.id, status.id, 'doing'), bob);
    await drain();
    expect((await stored('item', task.id))!.folder_id, 'Doing is not Done').toBe(b.id);

    const done = await put('values', value(b.id, task.id, status.id, 'done', { row_version: 2 }), bob);
    await drain();
    const moved = await stored('item', task.id);
    expect(moved!.folder_id).toBe(archive.id);
    expect(moved!.row_version).toBe(2);

    // The move is an ordinary write: an item.updated event by Autobot, naming the automation.
    const events = await server.ctx.db.selectFrom('domain_events').selectAll().where('record_id', '=', task.id).where('type', '=', 'item.updated').execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.actor_id).toBe(AUTOBOT_USER_ID);
    expect(events[0]!.via).toMatchObject({ automation_id: rule.id, automation_name: 'Archive done', chain: [{ automation_id: rule.id, item_id: task.id }] });
    const activity = await api(server.app, 'GET', `/api/${teamId}/activity?item_id=${task.id}`, { token: alice.token });
    expect(activity.json().data[0]).toMatchObject({ actor_id: AUTOBOT_USER_ID, via: { automation_name: 'Archive done' } });

    const log = await runs(b.id, rule.id);
    expect(log.map((r) => [r.result, r.trigger])).toEqual([['done', 'value_changed']]);

    // The same event delivered again (at least once): nothing happens twice.
    const doneEvent = await server.ctx.db.selectFrom('domain_events').select('id').where('record_id', '=', done.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const payload: RunPayload = { team_id: teamId, board_id: b.id, automation_id: rule.id, item_id: task.id, cause: String(doneEvent.id), fact: { type: 'value_changed', item_id: task.id, attribute_id: status.id, before: 'doing', after: 'done' }, chain: [] };
    expect(await runAutomation(server.ctx, payload)).toBeNull();
    await drain();
    expect((await stored('item', task.id))!.row_version).toBe(2);
    expect(await runs(b.id, rule.id)).toHaveLength(1);
  });

  it('never runs the same automation on the same item twice in a chain, and stops a chain 5 automations deep', async () => {
    const { b, status, notes } = await setup();
    // Changes Status whenever it changes: without the guard it would run for ever.
    const self = await put('automations', automation(b.id, { trigger: { type: 'value_changed', attribute_id: status.id }, actions: [{ type: 'set_value', attribute_id: status.id, value: 'doing' }] }));
    const task = item(b.id);
    await put('items', task);
    await put('values', value(b.id, task.id, status.id, 'todo'));
    await drain();
    expect((await stored('value', valueIdFor(task.id, status.id)))!.value).toBe('doing');
    const log = await runs(b.id, self.id);
    expect(log.map((r) => r.result).sort()).toEqual(['done', 'skipped']);
    expect(log.find((r) => r.result === 'skipped')!.error).toMatch(/loop guard/);
    await put('automations', { ...self, enabled: false, row_version: 2 });

    // S3 → S4 → S5 → S6 → Todo → Doing → Done: six steps, each its own automation.
    const steps = ['s3', 's4', 's5', 's6', 'todo', 'doing', 'done'];
    const chain = [];
    for (let i = 0; i < 6; i++) {
      chain.push(await put('automations', automation(b.id, { name: `step ${i + 1}`, trigger: { type: 'value_changed', attribute_id: status.id, to: steps[i] }, actions: [{ type: 'set_value', attribute_id: status.id, value: steps[i + 1] }, { type: 'set_value', attribute_id: notes.id, value: `step ${i + 1}` }] })));
    }
    const other = item(b.id);
    await put('items', other);
    await put('values', value(b.id, other.id, status.id, 's3'));
    await drain();
    expect((await stored('value', valueIdFor(other.id, status.id)))!.value, 'five automations ran, the sixth was stopped').toBe('doing');
    expect((await stored('value', valueIdFor(other.id, notes.id)))!.value).toBe('step 5');
    const sixth = await runs(b.id, chain[5]!.id);
    expect(sixth.map((r) => [r.result, r.error])).toEqual([['skipped', 'loop guard: the chain is 5 automations deep']]);
    for (const a of chain) await put('automations', { ...a, enabled: false, row_version: 2 });
  });

  it('runs a date trigger when the date arrives at its time in the automation’s time zone (server clock moved)', async () => {
    const { b, due } = await setup();
    const zone = 'Europe/Belgrade';
    const day = addDays(dateInZone(server.ctx.now(), zone), 2);
    const rule = await put('automations', automation(b.id, { trigger: { type: 'date_arrives', attribute_id: due.id, time: '09:00', offset_days: 0, timezone: zone }, actions: [{ type: 'add_comment', text: '{{item.name}} is due today ({{today}})' }] }));
    const task = item(b.id, { name: 'Report' });
    await put('items', task);
    await put('values', value(b.id, task.id, due.id, day));
    await drain();
    const at = zonedTimeToUtc(day, '09:00', zone);
    await advance(at.getTime() - server.ctx.now().getTime() - 90_000);
    await drain();
    expect(await runs(b.id, rule.id), 'not before 09:00 in Belgrade').toEqual([]);
    await advance(3 * 60_000);
    await drain();
    const log = await runs(b.id, rule.id);
    expect(log.map((r) => [r.result, r.trigger])).toEqual([['done', 'date_arrives']]);
    const comments = await server.ctx.db.selectFrom('records').select(['data', 'created_by']).where('collection', '=', 'comment').where('board_id', '=', b.id).execute();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.created_by).toBe(AUTOBOT_USER_ID);
    expect((comments[0]!.data as { text: { html: string } }).text.html).toBe(`<p>Report is due today (${day})</p>`);
    // A later tick does not fire the same date again.
    await advance(5 * 60_000);
    await drain();
    expect(await runs(b.id, rule.id)).toHaveLength(1);
    await put('automations', { ...rule, enabled: false, row_version: 2 });
  });

  it('runs a Button attribute’s automations when it is clicked, and the other triggers and actions', async () => {
    const { b, archive, status, checked, people, notes, button } = await setup();
    const other = board({ name: 'Follow-ups' });
    await put('folders', other);
    const origin = attribute(other.id, { name: 'Origin', kind: 'text' });
    await put('attributes', origin);
    const a1 = await put('automations', automation(b.id, { trigger: { type: 'button_clicked', attribute_id: button.id }, actions: [{ type: 'set_value', attribute_id: checked.id, value: true }, { type: 'assign', attribute_id: people.id, user_ids: [bob.user.id, rita.user.id] }] }));
    const a2 = await put('automations', automation(b.id, { trigger: { type: 'comment_added' }, actions: [{ type: 'unassign', attribute_id: people.id, user_ids: [rita.user.id] }, { type: 'notify', user_ids: [bob.user.id], on: 'item', message: 'New comment on {{item.name}}' }] }));
    const a3 = await put('automations', automation(b.id, { trigger: { type: 'item_moved', folder_id: archive.id }, actions: [{ type: 'create_item', board_id: other.id, folder_id: other.id, name: 'Follow up {{item.name}}', values: [{ attribute_id: origin.id, value: 'From {{board.name}}: {{item.name}}' }] }, { type: 'set_value', attribute_id: notes.id, value: null }] }));
    const task = item(b.id, { name: 'Launch' });
    await put('items', task);
    await put('values', value(b.id, task.id, notes.id, 'draft'));
    await put('button-clicks', { id: newId(), board_id: b.id, item_id: task.id, attribute_id: button.id, row_version: 1 }, bob);
    await drain();
    expect((await stored('value', valueIdFor(task.id, checked.id)))!.value).toBe(true);
    expect((await stored('value', valueIdFor(task.id, people.id)))!.value).toEqual([bob.user.id, rita.user.id]);

    await put('comments', { id: newId(), board_id: b.id, item_id: task.id, text: { html: '<p>hi</p>' }, row_version: 1 }, alice);
    await drain();
    expect((await stored('value', valueIdFor(task.id, people.id)))!.value).toEqual([bob.user.id]);
    const inbox = (await api(server.app, 'GET', '/api/notifications', { token: bob.token })).json().data as Notification[];
    expect(inbox.find((n) => n.notification_type === 'automation_item')).toMatchObject({ item_id: task.id, body: 'New comment on Launch', created_by_name: 'Autobot' });

    const { _created_by: _, ...current } = (await stored('item', task.id))!;
    await put('items', { ...current, folder_id: archive.id, row_version: current.row_version + 1 });
    await drain();
    const created = await server.ctx.db.selectFrom('records').select(['data', 'created_by']).where('collection', '=', 'item').where('board_id', '=', other.id).execute();
    expect(created.map((r) => (r.data as { name: string }).name)).toEqual(['Follow up Launch']);
    expect(created[0]!.created_by).toBe(AUTOBOT_USER_ID);
    const newId_ = (created[0]!.data as { id: string }).id;
    expect((await stored('value', valueIdFor(newId_, origin.id)))!.value, 'text values are templates').toBe('From Board: Launch');
    expect(await stored('value', valueIdFor(task.id, notes.id)), 'set to nothing clears the value').toMatchObject({ value: null });
    for (const a of [a1, a2, a3]) expect((await runs(b.id, a.id)).map((r) => r.result)).toEqual(['done']);
    void status;
  });

  it('sends to a webhook URL through the webhooks module’s delivery, once per run', async () => {
    const { b } = await setup();
    const receiver = await startReceiver();
    try {
      const rule = await put('automations', automation(b.id, { name: 'Tell the bot', trigger: { type: 'item_created' }, actions: [{ type: 'webhook', url: receiver.url }] }));
      const task = item(b.id, { name: 'Hook me' });
      await put('items', task);
      await drain();
      for (let i = 0; i < 50 && receiver.received.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        await drain();
      }
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.body).toMatchObject({ event: 'automation.run', board_id: b.id, data: { automation: { id: rule.id, name: 'Tell the bot' }, item: { id: task.id, name: 'Hook me' } } });
      expect((await runs(b.id, rule.id)).map((r) => r.result)).toEqual(['done']);
      await put('automations', { ...rule, enabled: false, row_version: 2 });
    } finally {
      await receiver.close();
    }
  });

  it('logs a failed run with its reason and undoes its writes', async () => {
    const { b, checked, archive } = await setup();
    const rule = await put('automations', automation(b.id, { trigger: { type: 'item_created' }, actions: [{ type: 'set_value', attribute_id: checked.id, value: true }, { type: 'move_to_folder', folder_id: archive.id }] }));
    // The folder goes to the trash after the rule was saved: the move is refused by the save path.
    const stale = (await stored('folder', archive.id))!;
    const del = await api(server.app, 'DELETE', `/api/${teamId}/folders/${archive.id}`, { token: alice.token });
    expect(del.statusCode).toBe(200);
    void stale;
    const task = item(b.id);
    await put('items', task);
    await drain();
    const [run] = await runs(b.id, rule.id);
    expect(run!.result).toBe('failed');
    expect(run!.error).toMatch(/422/);
    expect(await stored('value', valueIdFor(task.id, checked.id)), 'the first action is undone too').toBeNull();
  });

  it('warns owners and admins at 80 %, stops every automation at 100 % and starts again on the 1st', async () => {
    // From the 1st of a month with no runs yet.
    const start = server.ctx.now();
    await advance(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1, 0, 0, 30) - start.getTime());
    const { b, notes } = await setup();
    const sub = await server.ctx.db
      .insertInto('subscriptions')
      .values({ user_id: alice.user.id, deal: 'free', limits: JSON.stringify({ AutomationRunsLimit: 10 }), trial_ends_at: null, ends_at: null, version: 8, created_at: server.ctx.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await server.ctx.db.updateTable('teams').set({ subscription_id: sub.id }).where('id', '=', teamId).execute();
    const before = await api(server.app, 'GET', `/api/${teamId}/automations/usage?board_id=${b.id}`, { token: bob.token });
    const used = (before.json() as AutomationUsage).runs;
    expect(used).toBe(0);
    const rule = await put('automations', automation(b.id, { trigger: { type: 'item_created' }, actions: [{ type: 'set_value', attribute_id: notes.id, value: 'seen' }] }));
    const limitNotes = async () => ((await api(server.app, 'GET', '/api/notifications?limit=100', { token: alice.token })).json().data as Notification[]).filter((n) => n.notification_type.startsWith('automation_runs'));
    const newItem = async () => {
      const task = item(b.id);
      await put('items', task, bob);
      await drain();
      return task.id;
    };
    for (let i = used; i < 7; i++) await newItem();
    expect(await limitNotes(), 'below 80 %').toEqual([]);
    await newItem(); // 8 of 10
    expect((await limitNotes()).map((n) => [n.notification_type, n.usage, n.limit, n.board_id])).toEqual([['automation_runs_warning', 8, 10, b.id]]);
    await newItem();
    await newItem(); // 10 of 10
    const told = await limitNotes();
    expect(told.map((n) => n.notification_type).sort()).toEqual(['automation_runs_exceeded', 'automation_runs_warning']);
    const stopped = await newItem();
    expect(await stored('value', valueIdFor(stopped, notes.id)), 'every automation stops at 100 %').toBeNull();
    expect((await runs(b.id, rule.id))[0]).toMatchObject({ result: 'limit', item_id: stopped });
    expect(await limitNotes(), 'the exceeded notification is sent once').toHaveLength(2);
    const usage = (await api(server.app, 'GET', `/api/${teamId}/automations/usage?board_id=${b.id}`, { token: bob.token })).json() as AutomationUsage;
    expect(usage).toMatchObject({ runs: 10, limit: 10, rate: 1, state: 'exceeded' });

    // The 1st of next month (UTC): the count starts again.
    const now = server.ctx.now();
    const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 1);
    await advance(first - now.getTime());
    const fresh = await newItem();
    expect((await stored('value', valueIdFor(fresh, notes.id)))!.value).toBe('seen');
    const next = (await api(server.app, 'GET', `/api/${teamId}/automations/usage?board_id=${b.id}`, { token: bob.token })).json() as AutomationUsage;
    expect(next).toMatchObject({ runs: 1, state: 'ok' });
    expect(next.month).not.toBe(usage.month);
    await put('automations', { ...rule, enabled: false, row_version: 2 });
  });

  it('counts runs working side by side exactly: never past the limit, and the warning told once (decision 0200)', async () => {
    const { b, notes } = await setup();
    const rule = await put('automations', automation(b.id, { trigger: { type: 'item_created' }, actions: [{ type: 'set_value', attribute_id: notes.id, value: 'seen' }] }));
    await drain();
    const limitOf = async (limit: number) => {
      const sub = await server.ctx.db
        .insertInto('subscriptions')
        .values({ user_id: alice.user.id, deal: 'free', limits: JSON.stringify({ AutomationRunsLimit: limit }), trial_ends_at: null, ends_at: null, version: 8, created_at: server.ctx.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await server.ctx.db.updateTable('teams').set({ subscription_id: sub.id }).where('id', '=', teamId).execute();
    };
    const nextMonth = async () => {
      const now = server.ctx.now();
      await advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 1) - now.getTime());
    };
    // Many new items, then one pass of the runner: their runs are claimed in one batch and run at
    // the same time (on PostgreSQL in transactions of their own, side by side).
    const burst = async (n: number) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const task = item(b.id);
        await put('items', task, bob);
        ids.push(task.id);
      }
      await drain();
      return ids;
    };
    const shards = async () => (await server.ctx.db.selectFrom('automation_usage').select(['shard', 'runs']).where('team_id', '=', teamId).where('month', '=', server.ctx.now().toISOString().slice(0, 7)).execute()).filter((r) => r.runs > 0);
    const limitNotes = async (limit: number) => ((await api(server.app, 'GET', '/api/notifications?limit=100', { token: alice.token })).json().data as Notification[]).filter((n) => n.notification_type.startsWith('automation_runs') && n.limit === limit);

    // A small limit is judged exactly, with every count row locked: 16 runs at once, 12 allowed.
    await nextMonth();
    await limitOf(12);
    const ids = await burst(16);
    const seen = (await Promise.all(ids.map((id) => stored('value', valueIdFor(id, notes.id))))).filter((v) => v?.value === 'seen');
    expect(seen, 'exactly the limit’s runs acted').toHaveLength(12);
    const results = (await runs(b.id, rule.id)).filter((r) => ids.includes(r.item_id!)).map((r) => r.result);
    expect(results.filter((r) => r === 'done')).toHaveLength(12);
    expect(results.filter((r) => r === 'limit')).toHaveLength(4);
    expect((await api(server.app, 'GET', `/api/${teamId}/automations/usage?board_id=${b.id}`, { token: bob.token })).json()).toMatchObject({ runs: 12, limit: 12, state: 'exceeded' });
    expect((await limitNotes(12)).map((n) => n.notification_type).sort()).toEqual(['automation_runs_exceeded', 'automation_runs_warning']);

    // A big limit far away: each run adds to one of the shards, the sum is the month's count, and
    // crossing 80 % while many runs count at once is told once.
    await nextMonth();
    await limitOf(1000);
    const month = server.ctx.now().toISOString().slice(0, 7);
    await server.ctx.db.insertInto('automation_usage').values({ team_id: teamId, month, shard: 3, runs: 790 }).execute();
    await burst(20);
    const rows = await shards();
    expect(rows.reduce((sum, r) => sum + r.runs, 0)).toBe(810);
    expect(rows.length, 'the runs counted on more than one row').toBeGreaterThan(1);
    expect((await api(server.app, 'GET', `/api/${teamId}/automations/usage?board_id=${b.id}`, { token: bob.token })).json()).toMatchObject({ runs: 810, limit: 1000, state: 'warning' });
    expect((await limitNotes(1000)).map((n) => n.notification_type)).toEqual(['automation_runs_warning']);
    await put('automations', { ...rule, enabled: false, row_version: 2 });
  });

  it('keeps automations and the run log from people outside the workspace', async () => {
    const { b } = await setup();
    const outsider = await createUserWithToken(server.ctx, { name: 'Out' });
    const res = await api(server.app, 'GET', `/api/${teamId}/automations/runs?board_id=${b.id}`, { token: outsider.token });
    expect(res.statusCode).toBe(403);
    const list = await api(server.app, 'GET', `/api/${teamId}/automations?board_id=${b.id}`, { token: bob.token });
    expect(list.statusCode).toBe(200);
  });
});
