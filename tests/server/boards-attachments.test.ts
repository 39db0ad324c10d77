import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { ATTACHMENT_MAX_BYTES } from '../../schema/attributes';
import { attribute, board, item, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/** Attachments: upload a file for an item, save it into the value, download it, size limit. */
describe('boards: attachments', () => {
  let server: TestServer;
  let t: TeamFixture;
  let b: ReturnType<typeof board>;
  let ownersItem: ReturnType<typeof item>;
  let files: ReturnType<typeof attribute>;
  const put = (route: string, body: Record<string, unknown>, token = t.owner.token) =>
    api(server.app, 'PUT', `/api/${t.teamId}/${route}/${String(body.id)}`, { token, body });

  function upload(itemId: string, data: Buffer, filename: string, token: string | null = t.owner.token, type = 'application/pdf') {
    const boundary = '----cairn' + Math.random().toString(16).slice(2);
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    if (token) headers.authorization = `Bearer ${token}`;
    return server.app.inject({ method: 'POST', url: `/api/${t.teamId}/attachments?item_id=${itemId}`, payload, headers });
  }

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    b = board();
    ownersItem = item(b.id, { name: 'Owner item' });
    files = attribute(b.id, { name: 'Files', kind: 'attachments' });
    for (const [route, rec] of [['folders', b], ['items', ownersItem], ['attributes', files]] as const) expect((await put(route, rec)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('stores a file, answers the attachment entry, and serves it back as a download', async () => {
    const bytes = Buffer.from('%PDF-1.4 not really a pdf');
    const res = await upload(ownersItem.id, bytes, 'Plan ü.pdf');
    expect(res.statusCode, res.body).toBe(200);
    const entry = res.json().data;
    expect(entry).toMatchObject({ name: 'Plan ü.pdf', size: bytes.length, mime: 'application/octet-stream' });
    expect(entry.url).toMatch(/^\/api\/files\/attachments\/[A-Za-z0-9_-]+\.bin$/);
    // The entry is a valid attachments value.
    expect((await put('values', value(b.id, ownersItem.id, files.id, [entry]))).statusCode).toBe(200);
    const got = await server.app.inject({ method: 'GET', url: `${entry.url}?name=${encodeURIComponent(entry.name)}` });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(bytes)).toBe(true);
    expect(got.headers['content-type']).toBe('application/octet-stream');
    expect(got.headers['content-disposition']).toContain("filename*=UTF-8''Plan%20%C3%BC.pdf");
    expect(got.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps an image an image (to open in a tab)', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
    const res = await upload(ownersItem.id, png, 'shot.png', t.owner.token, 'image/png');
    expect(res.json().data.url).toMatch(/\.png$/);
    expect((await server.app.inject({ method: 'GET', url: res.json().data.url })).headers['content-type']).toBe('image/png');
  });

  it('refuses a file over the limit with 413 and the file-too-large message', async () => {
    const res = await upload(ownersItem.id, Buffer.alloc(ATTACHMENT_MAX_BYTES + 1), 'big.bin');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: `The file is too large. It must be under ${ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB.`, type: 'too_large' });
  });

  it('needs the right to edit the item: 401 anonymous, 403 for a restricted member on someone else’s item, 422 unknown item', async () => {
    expect((await upload(ownersItem.id, Buffer.from('x'), 'a.txt', null)).statusCode).toBe(401);
    expect((await upload(ownersItem.id, Buffer.from('x'), 'a.txt', t.restricted.token)).statusCode).toBe(403);
    expect((await upload(ownersItem.id, Buffer.from('x'), 'a.txt', t.stranger.token)).statusCode).toBe(403);
    expect((await upload('nope', Buffer.from('x'), 'a.txt')).statusCode).toBe(422);
    const empty = await upload(ownersItem.id, Buffer.alloc(0), 'empty.txt');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().data).toEqual(['file: choose a file that is not empty']);
  });
});
