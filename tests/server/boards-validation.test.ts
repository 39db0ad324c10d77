import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { AttributeMessages } from '../../schema/attributes';
import { Messages } from '../../schema/messages';
import { attribute, board, item, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/** The server runs the app's attribute and value checks on save (schema/attributes.ts). */
describe('boards: attribute and value checks on the server', () => {
  let server: TestServer;
  let t: TeamFixture;
  let b: ReturnType<typeof board>;
  let it1: ReturnType<typeof item>;
  const put = (route: string, body: Record<string, unknown>, token = t.owner.token) =>
    api(server.app, 'PUT', `/api/${t.teamId}/${route}/${String(body.id)}`, { token, body });
  const expect422 = (res: Awaited<ReturnType<typeof put>>, message: string) => {
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ type: 'validation', message: Messages.validationPrefix + message, data: [message] });
  };

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    b = board();
    it1 = item(b.id);
    expect((await put('folders', b)).statusCode).toBe(200);
    expect((await put('items', it1)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('refuses a second attribute with the same name and kind, ignoring case and spaces', async () => {
    expect((await put('attributes', attribute(b.id, { name: 'Owner', kind: 'text' }))).statusCode).toBe(200);
    expect422(await put('attributes', attribute(b.id, { name: ' owner ', kind: 'text' })), AttributeMessages.duplicate);
    // Same name, other kind: fine.
    expect((await put('attributes', attribute(b.id, { name: 'Owner', kind: 'email' }))).statusCode).toBe(200);
  });

  it('lets a trashed attribute’s name be used again, and an attribute keep its own name', async () => {
    const first = attribute(b.id, { name: 'Notes', kind: 'long-text' });
    expect((await put('attributes', first)).statusCode).toBe(200);
    expect((await put('attributes', { ...first, hidden: true, row_version: 2 })).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/attributes/${first.id}`, { token: t.owner.token })).statusCode).toBe(200);
    expect((await put('attributes', attribute(b.id, { name: 'Notes', kind: 'long-text' }))).statusCode).toBe(200);
  });

  it('answers 403, not 422, to someone who may not add attributes', async () => {
    expect((await put('attributes', attribute(b.id, { name: 'Owner', kind: 'text' }), t.restricted.token)).statusCode).toBe(403);
  });

  it('checks values by their attribute’s kind: email, URL, date range', async () => {
    const email = attribute(b.id, { name: 'Contact', kind: 'email' });
    const link = attribute(b.id, { name: 'Site', kind: 'link' });
    const range = attribute(b.id, { name: 'When', kind: 'date-range' });
    for (const a of [email, link, range]) expect((await put('attributes', a)).statusCode).toBe(200);

    expect422(await put('values', value(b.id, it1.id, email.id, 'not an email')), AttributeMessages.invalidEmail);
    expect422(await put('values', value(b.id, it1.id, link.id, { url: 'ht tp://x' })), AttributeMessages.invalidUrl);
    expect422(await put('values', value(b.id, it1.id, range.id, { start: '2026-05-10', end: '2026-05-09' })), AttributeMessages.endBeforeStart);

    expect((await put('values', value(b.id, it1.id, email.id, 'ada@example.com'))).statusCode).toBe(200);
    const saved = await put('values', value(b.id, it1.id, link.id, 'example.com/docs'));
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.value).toEqual({ url: 'https://example.com/docs' }); // stored normalised
    expect((await put('values', value(b.id, it1.id, range.id, { start: '2026-05-10', end: '2026-05-10' }))).statusCode).toBe(200);
  });

  it('refuses a label option that does not exist and accepts empty values', async () => {
    const tag = attribute(b.id, { name: 'Tag', kind: 'label', settings: { options: [{ id: 'red', name: 'Red' }] } });
    expect((await put('attributes', tag)).statusCode).toBe(200);
    expect422(await put('values', value(b.id, it1.id, tag.id, 'blue')), AttributeMessages.unknownOption);
    const ok = await put('values', value(b.id, it1.id, tag.id, 'red'));
    expect(ok.statusCode).toBe(200);
    const cleared = await put('values', value(b.id, it1.id, tag.id, '', { row_version: 2 }));
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data.value).toBeNull();
  });

  it('checks values inside a transaction batch too', async () => {
    const mail = attribute(b.id, { name: 'Batch mail', kind: 'email' });
    const res = await api(server.app, 'POST', `/api/${t.teamId}/batch`, {
      token: t.owner.token,
      body: {
        transaction: 'tx-1',
        requests: [
          { method: 'put', route: `attributes/${mail.id}`, payload: mail },
          { method: 'put', route: `values/${it1.id}.${mail.id}`, payload: value(b.id, it1.id, mail.id, 'nope') },
        ],
      },
    });
    expect(res.statusCode).toBe(422);
  });
});
