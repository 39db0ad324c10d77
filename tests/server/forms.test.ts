import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { valueIdFor } from '../../schema/records';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { addMember, attribute, board, folder, newId, recordingBroadcaster, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { FORM_LIMITS } from '../../server/forms/routes';

/**
 * Public forms (issue #13, decision 0130) against the real server: an anonymous visitor reads an
 * enabled Form view and answers it; the answer becomes an item written as the form's owner
 * through the save path, so the notifications consumer tells the owner "form submitted".
 * Disabled, unknown and unavailable forms, the attribute rules, the per-address throttle,
 * uploaded attachments and the bot check.
 */
describe('public forms', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Requests' });
  const inbox = folder(b.id, { name: 'Inbox' });
  const nameId = `${b.id}.name`;
  const email = attribute(b.id, { name: 'Email', kind: 'email' });
  const size = attribute(b.id, { name: 'Size', kind: 'number' });
  const status = attribute(b.id, { name: 'Status', kind: 'status', settings: { options: [{ id: 'new', name: 'New', color: '#DDDDDD' }, { id: 'done', name: 'Done', color: '#00FF00', done: true }] } });
  const owners = attribute(b.id, { name: 'Owners', kind: 'members' });
  const files = attribute(b.id, { name: 'Files', kind: 'attachments' });
  const recorder = recordingBroadcaster();
  let ip = 1;
  /** A fresh client address per test, so the throttle test is the only one that fills a window. */
  const nextIp = () => `198.51.100.${ip++}`;

  const putRecord = async (route: string, rec: { id: string; [key: string]: unknown }, token = t.owner.token) => {
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const formView = (settings: Record<string, unknown>, fields: Record<string, unknown> = {}) => ({ id: newId(), board_id: b.id, folder_id: b.id, name: 'Request form', kind: 'form', settings, row_version: 1, ...fields });
  const send = (formId: string, answers: unknown, from = nextIp()) => api(server.app, 'POST', `/api/forms/${formId}`, { body: { answers }, headers: { 'x-forwarded-for': from } });
  const itemsOf = async () => (await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${b.id}`, { token: t.owner.token })).json().data as { id: string; name: string; folder_id: string }[];
  const valuesOf = async () => (await api(server.app, 'GET', `/api/${t.teamId}/values?board_id=${b.id}`, { token: t.owner.token })).json().data as { id: string; value: unknown }[];

  let openForm: string;
  const fields = [
    { attribute_id: nameId, label: 'Your request', required: true },
    { attribute_id: email.id, help: 'We answer here', required: true },
    { attribute_id: size.id },
    { attribute_id: status.id },
    { attribute_id: files.id },
  ];

  beforeAll(async () => {
    server = await createTestServer({ broadcaster: recorder.broadcaster });
    t = await teamWithRoles(server.ctx);
    await putRecord('folders', b);
    await putRecord('folders', inbox);
    for (const a of [email, size, status, owners, files]) await putRecord('attributes', a);
    openForm = (await putRecord('folder-views', formView({ enabled: true, fields, target_folder_id: inbox.id, confirmation: 'Thanks, we got it.' }))).id;
  });
  afterAll(() => server?.close());

  it('a form saved with settings {} is disabled: a clear 404 to visitors, nothing written', async () => {
    const view = await putRecord('folder-views', formView({}));
    const read = await api(server.app, 'GET', `/api/forms/${view.id}`);
    expect(read.statusCode).toBe(404);
    expect(read.json().type).toBe('form_disabled');
    const before = (await itemsOf()).length;
    const sent = await send(view.id, { [nameId]: 'Hello' });
    expect(sent.statusCode).toBe(404);
    expect(sent.json().type).toBe('form_disabled');
    expect((await itemsOf()).length).toBe(before);
  });

  it('an unknown form, or a view that is no form, is form_not_found', async () => {
    for (const id of ['no-such-form', 'bad id!', (await putRecord('folder-views', { ...formView({}), kind: 'table' })).id]) {
      const res = await api(server.app, 'GET', `/api/forms/${encodeURIComponent(id)}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().type, id).toBe('form_not_found');
      expect((await send(encodeURIComponent(id), {})).json().type, id).toBe('form_not_found');
    }
  });

  it('shows an anonymous visitor the form’s fields and nothing else of the board', async () => {
    const res = await api(server.app, 'GET', `/api/forms/${openForm}`);
    expect(res.statusCode, res.body).toBe(200);
    const form = res.json().data;
    expect(form.title).toBe('Request form');
    expect(form.bot_check_sitekey).toBeNull();
    expect(form.fields.map((f: { attribute_id: string }) => f.attribute_id)).toEqual([nameId, email.id, size.id, status.id, files.id]);
    expect(form.fields[0]).toMatchObject({ kind: 'primary', label: 'Your request', required: true });
    expect(form.fields[1]).toMatchObject({ kind: 'email', label: 'Email', help: 'We answer here', required: true });
    expect(form.fields[3].options.map((o: { name: string }) => o.name)).toEqual(['New', 'Done']);
    expect(res.body).not.toContain(owners.id);
    expect(res.body).not.toContain('Owners');
  });

  it('a valid answer becomes an item in the target folder, written as the owner, shown live and notified', async () => {
    recorder.events.length = 0;
    const res = await send(openForm, { [nameId]: '  Laptop for Ana ', [email.id]: 'ana@example.com', [size.id]: '3,5', [status.id]: 'new' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toEqual({ confirmation: 'Thanks, we got it.' });
    const item = (await itemsOf()).find((i) => i.name === 'Laptop for Ana');
    expect(item).toBeDefined();
    expect(item!.folder_id).toBe(inbox.id);
    const stored = await server.ctx.db.selectFrom('records').select(['created_by']).where('collection', '=', 'item').where('id', '=', item!.id).executeTakeFirstOrThrow();
    expect(stored.created_by).toBe(t.owner.user.id);
    const values = new Map((await valuesOf()).map((v) => [v.id, v.value]));
    expect(values.get(valueIdFor(item!.id, email.id))).toBe('ana@example.com');
    expect(values.get(valueIdFor(item!.id, size.id))).toBe(3.5);
    expect(values.get(valueIdFor(item!.id, status.id))).toBe('new');
    // Realtime: the owner's open board hears of the item and its values.
    const saved = recorder.events.filter((e) => e.event === 'saved' && e.channel.includes(b.id));
    expect(saved.map((e) => e.data.collection).sort()).toEqual(['item', 'value', 'value', 'value']);
    // The domain event carries the form; the notifications consumer tells the owner.
    const event = await server.ctx.db.selectFrom('domain_events').select(['actor_id', 'via']).where('type', '=', 'item.created').where('record_id', '=', item!.id).executeTakeFirstOrThrow();
    expect(event.actor_id).toBe(t.owner.user.id);
    expect(event.via).toMatchObject({ form_id: openForm, form_name: 'Request form' });
    await server.ctx.jobs.drain();
    const list = (await api(server.app, 'GET', '/api/notifications?limit=100', { token: t.owner.token })).json().data as { notification_type: string; item_id: string; form_name: string }[];
    expect(list.filter((n) => n.notification_type === 'form_submitted' && n.item_id === item!.id)).toEqual([expect.objectContaining({ form_name: 'Request form' })]);
  });

  it('an answer that breaks the attribute rules is refused with the spec’s message and per-field problems; nothing is written', async () => {
    const before = (await itemsOf()).length;
    const res = await send(openForm, { [nameId]: '', [email.id]: 'not-an-email', [size.id]: 'many', [status.id]: 'nope', [owners.id]: [t.owner.user.id] });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toBe('The form has an error, fix it');
    expect(body.data.fields).toEqual({
      [nameId]: 'this field is required',
      [email.id]: 'enter a valid email address',
      [size.id]: 'enter a number',
      [status.id]: 'choose one of the options',
      [owners.id]: 'this form does not ask for it',
    });
    // An attachment given as an address (not a file) is refused too.
    const link = await send(openForm, { [nameId]: 'x', [email.id]: 'a@b.co', [files.id]: [{ id: 'f', name: 'f', size: 1, url: 'https://example.com/f' }] });
    expect(link.statusCode).toBe(422);
    expect(link.json().data.fields).toEqual({ [files.id]: 'attach files to this field' });
    expect((await api(server.app, 'POST', `/api/forms/${openForm}`, { body: { answers: ['x'] }, headers: { 'x-forwarded-for': nextIp() } })).statusCode).toBe(422);
    expect((await itemsOf()).length).toBe(before);
  });

  it('takes uploaded files into an attachments field (multipart), stored as the workspace’s', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const boundary = '----cairnform';
    const part = (head: string, data: Buffer | string) => Buffer.concat([Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`), Buffer.from(data), Buffer.from('\r\n')]);
    const payload = Buffer.concat([
      part('Content-Disposition: form-data; name="answers"', JSON.stringify({ [nameId]: 'With a file', [email.id]: 'file@example.com' })),
      part(`Content-Disposition: form-data; name="${files.id}"; filename="shot.png"\r\nContent-Type: image/png`, png),
      part(`Content-Disposition: form-data; name="${files.id}"; filename="notes.txt"\r\nContent-Type: text/plain`, 'hello'),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const res = await server.app.inject({ method: 'POST', url: `/api/forms/${openForm}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': nextIp() }, payload });
    expect(res.statusCode, res.body).toBe(201);
    const item = (await itemsOf()).find((i) => i.name === 'With a file')!;
    const entries = (await valuesOf()).find((v) => v.id === valueIdFor(item.id, files.id))!.value as { name: string; size: number; mime: string; url: string }[];
    expect(entries.map((e) => [e.name, e.size, e.mime])).toEqual([['shot.png', png.length, 'image/png'], ['notes.txt', 5, 'application/octet-stream']]);
    const file = await server.app.inject({ method: 'GET', url: entries[1]!.url });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('hello');
    // A file for a field that is not an attachments field is refused, and nothing is stored for it.
    const wrong = Buffer.concat([
      part('Content-Disposition: form-data; name="answers"', JSON.stringify({ [nameId]: 'Wrong file', [email.id]: 'w@example.com' })),
      part(`Content-Disposition: form-data; name="${email.id}"; filename="x.txt"\r\nContent-Type: text/plain`, 'x'),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const refused = await server.app.inject({ method: 'POST', url: `/api/forms/${openForm}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': nextIp() }, payload: wrong });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().data.fields).toEqual({ [email.id]: 'this form does not ask for it' });
  });

  it('throttles accepted answers per address (refused ones do not count), other addresses go on', async () => {
    const from = nextIp();
    for (let i = 0; i < 3; i++) expect((await send(openForm, { [email.id]: 'broken' }, from)).statusCode).toBe(422);
    for (let i = 0; i < FORM_LIMITS.submissionsPerIp.max; i++) {
      const res = await send(openForm, { [nameId]: `Burst ${i}`, [email.id]: 'b@example.com' }, from);
      expect(res.statusCode, res.body).toBe(201);
    }
    const over = await send(openForm, { [nameId]: 'One too many', [email.id]: 'b@example.com' }, from);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await itemsOf()).some((i) => i.name === 'One too many')).toBe(false);
    expect((await send(openForm, { [nameId]: 'Someone else', [email.id]: 'c@example.com' })).statusCode).toBe(201);
    // The window passes: the address may answer again.
    server.advance(FORM_LIMITS.submissionsPerIp.windowMs + 1000);
    expect((await send(openForm, { [nameId]: 'Later', [email.id]: 'b@example.com' }, from)).statusCode).toBe(201);
  });

  it('a form whose owner may no longer create items there is unavailable', async () => {
    const member = t.full;
    const view = await putRecord('folder-views', formView({ enabled: true }), member.token);
    expect((await api(server.app, 'GET', `/api/forms/${view.id}`)).statusCode).toBe(200);
    await server.ctx.db.deleteFrom('team_members').where('team_id', '=', t.teamId).where('user_id', '=', member.user.id).execute();
    try {
      const res = await send(view.id, { [nameId]: 'Orphan' });
      expect(res.statusCode).toBe(404);
      expect(res.json().type).toBe('form_unavailable');
      expect((await itemsOf()).some((i) => i.name === 'Orphan')).toBe(false);
    } finally {
      await addMember(server.ctx, t.teamId, member.user.id, 'full-member');
    }
  });

  it('with a bot check configured, an answer needs a token the provider accepts', async () => {
    const provider = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: form.get('secret') === 'bot-secret' && form.get('response') === 'human' }));
      });
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const port = (provider.address() as AddressInfo).port;
    server.ctx.config.botCheck = { sitekey: 'site-key-1', secret: 'bot-secret', verifyUrl: `http://127.0.0.1:${port}/siteverify` };
    server.ctx.config.outbound.features.botCheck = { allowedHosts: ['127.0.0.1'] }; // the bot check's own allow-list (decision 0355)
    try {
      expect((await api(server.app, 'GET', `/api/forms/${openForm}`)).json().data.bot_check_sitekey).toBe('site-key-1');
      expect((await api(server.app, 'GET', '/api/app-vars')).json().botCheckSitekey).toBe('site-key-1');
      const answers = { [nameId]: 'Bot?', [email.id]: 'bot@example.com' };
      const none = await send(openForm, answers);
      expect(none.statusCode).toBe(422);
      expect(none.json().type).toBe('bot_check');
      const wrong = await api(server.app, 'POST', `/api/forms/${openForm}`, { body: { answers, bot_token: 'robot' }, headers: { 'x-forwarded-for': nextIp() } });
      expect(wrong.json().type).toBe('bot_check');
      expect((await itemsOf()).some((i) => i.name === 'Bot?')).toBe(false);
      const human = await api(server.app, 'POST', `/api/forms/${openForm}`, { body: { answers, bot_token: 'human' }, headers: { 'x-forwarded-for': nextIp() } });
      expect(human.statusCode, human.body).toBe(201);
    } finally {
      server.ctx.config.botCheck = null;
      await new Promise((resolve) => provider.close(resolve));
    }
  });
});
