import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { PHOTO_MAX_BYTES } from '../../schema/constants';

/** GET/PUT /api/me, PUT /api/me/email, POST/DELETE /api/me/photo and GET /api/files. */
describe('me: profile, email and photo', () => {
  let server: TestServer;
  let token: string;
  const password = 'profile password';

  beforeAll(async () => {
    server = await createTestServer();
    const res = await api(server.app, 'POST', '/api/auth/register', { body: { email: 'me@example.test', name: 'Me', password } });
    token = res.json().access_token;
  });
  afterAll(() => server.close());

  const put = (body: unknown) => api(server.app, 'PUT', '/api/me', { token, body });

  it('answers the profile, and 401 without a session', async () => {
    const me = await api(server.app, 'GET', '/api/me', { token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ name: 'Me', email: 'me@example.test', photo_url: null, guest: false, locale: 'en-US', theme: 2, preferences: {}, timezone: null, start_of_week: null });
    expect(me.json().password_hash).toBeUndefined();
    expect(me.json().totp_secret).toBeUndefined();
    const anon = await api(server.app, 'GET', '/api/me');
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ message: 'This action is unauthorized.', type: 'unauthenticated' });
    expect((await api(server.app, 'PUT', '/api/me', { body: { name: 'X' } })).statusCode).toBe(401);
  });

  it('updates name, locale, timezone, week start, theme and merges preferences', async () => {
    const res = await put({ name: '  Mia  ', locale: 'sr-Latn', timezone: 'Europe/Belgrade', start_of_week: 1, theme: 1, preferences: { api_dev_helper: true, workspaceSortOrder: [3, 1] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Mia', locale: 'sr-Latn', timezone: 'Europe/Belgrade', start_of_week: 1, theme: 1, preferences: { api_dev_helper: true, workspaceSortOrder: [3, 1] } });
    const merged = await put({ preferences: { usedCancelCoupon: true, api_dev_helper: null } });
    expect(merged.json().preferences).toEqual({ workspaceSortOrder: [3, 1], usedCancelCoupon: true });
    const cleared = await put({ timezone: null, start_of_week: null });
    expect(cleared.json()).toMatchObject({ timezone: null, start_of_week: null, name: 'Mia' });
  });

  it('refuses bad profile values with one message per field', async () => {
    const res = await put({ name: '', locale: 'klingon', timezone: 'Mars/Olympus', start_of_week: 7, theme: 5, preferences: { api_dev_helper: 'yes' } });
    expect(res.statusCode).toBe(422);
    const data: string[] = res.json().data;
    expect(data).toEqual(
      expect.arrayContaining([
        'name: is required',
        'locale: must be a language tag such as en-US',
        'timezone: must be an IANA time zone such as Europe/Belgrade',
        'start_of_week: must be a day number from 0 (Sunday) to 6',
        'theme: must be 0 (light), 1 (dark) or 2 (system)',
        'preferences.api_dev_helper: must be true or false',
      ]),
    );
    expect(res.json().message).toBe('Validation Error: ' + data.join(', '));
    const unknown = await put({ email: 'sneaky@example.test' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().data[0]).toMatch(/email/);
    const huge = await put({ preferences: { blob: 'x'.repeat(20_000) } });
    expect(huge.statusCode).toBe(422);
    const notJson = await server.app.inject({ method: 'PUT', url: '/api/me', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: '{name' });
    expect(notJson.statusCode).toBe(400);
    // Nothing of the refused requests was stored.
    expect((await api(server.app, 'GET', '/api/me', { token })).json().name).toBe('Mia');
  });

  it('changes the email after reauthentication, unverified until the new address confirms', async () => {
    const before = await api(server.app, 'PUT', '/api/me/email', { token, body: { email: 'new-me@example.test' } });
    expect(before.statusCode).toBe(401);
    expect(before.json().type).toBe('reauth');
    await api(server.app, 'POST', '/api/auth/reauthenticate', { token, body: { password } });

    await api(server.app, 'POST', '/api/auth/register', { body: { email: 'taken@example.test', name: 'T', password: 'taken password' } });
    const taken = await api(server.app, 'PUT', '/api/me/email', { token, body: { email: 'Taken@example.test' } });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().message).toBe('The email has already been taken.');
    expect((await api(server.app, 'PUT', '/api/me/email', { token, body: { email: 'nope' } })).json().data).toEqual(['email: must be a valid email address']);

    const ok = await api(server.app, 'PUT', '/api/me/email', { token, body: { email: 'new-me@example.test' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ email: 'new-me@example.test', email_verified: false });
    const outbox = await server.outbox();
    const verify = outbox.filter((m) => m.to === 'new-me@example.test').at(-1)!;
    expect(verify.text).toMatch(/verify-email\?token=/);
    expect(outbox.some((m) => m.to === 'me@example.test' && /was changed/.test(m.subject))).toBe(true);

    const verifyToken = decodeURIComponent(/verify-email\?token=([^\s]+)/.exec(verify.text)![1]!);
    expect((await api(server.app, 'POST', '/api/auth/verify-email', { body: { token: verifyToken } })).statusCode).toBe(200);
    expect((await api(server.app, 'GET', '/api/me', { token })).json().email_verified).toBe(true);
    expect((await api(server.app, 'POST', '/api/auth/login', { body: { email: 'new-me@example.test', password } })).statusCode).toBe(200);
  });

  it('changes the password with the current one, signing out the other sessions only', async () => {
    const other = await api(server.app, 'POST', '/api/auth/login', { body: { email: 'new-me@example.test', password } });
    const otherToken = other.json().access_token;
    const change = (body: unknown) => api(server.app, 'PUT', '/api/me/password', { token, body });

    const wrong = await change({ current_password: 'not it at all', password: 'next password' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().data).toEqual(['current_password: is incorrect']);
    expect((await change({ current_password: password, password: 'short' })).json().data).toEqual(['password: must be at least 8 characters']);
    expect((await change({})).json().data).toEqual(expect.arrayContaining(['current_password: is required', 'password: is required']));

    const ok = await change({ current_password: password, password: 'next password' });
    expect(ok.statusCode).toBe(200);
    expect((await api(server.app, 'GET', '/api/me', { token })).statusCode).toBe(200);
    expect((await api(server.app, 'GET', '/api/me', { token: otherToken })).statusCode).toBe(401);
    expect((await api(server.app, 'POST', '/api/auth/login', { body: { email: 'new-me@example.test', password } })).statusCode).toBe(422);
    expect((await api(server.app, 'POST', '/api/auth/login', { body: { email: 'new-me@example.test', password: 'next password' } })).statusCode).toBe(200);
  });

  describe('photo', () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
    function multipart(field: string, data: Buffer, filename = 'photo.png', type = 'image/png') {
      const boundary = '----cairnTestBoundary' + Math.random().toString(16).slice(2);
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } };
    }
    const upload = (field: string, data: Buffer, filename?: string, type?: string) => server.app.inject({ method: 'POST', url: '/api/me/photo', ...multipart(field, data, filename, type) });

    it('stores an image, serves it, replaces it and deletes it', async () => {
      const res = await upload('photo', png);
      expect(res.statusCode).toBe(200);
      const url: string = res.json().photo_url;
      expect(url).toMatch(/^\/api\/files\/photos\/[A-Za-z0-9_-]+\.png$/);
      const served = await server.app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.rawPayload.equals(png)).toBe(true);

      const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32, 1)]);
      const replaced = await upload('photo', jpeg, 'me.jpg', 'image/jpeg');
      expect(replaced.json().photo_url).toMatch(/\.jpg$/);
      expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(404);

      const removed = await api(server.app, 'DELETE', '/api/me/photo', { token });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().photo_url).toBeNull();
      expect((await server.app.inject({ method: 'GET', url: replaced.json().photo_url })).statusCode).toBe(404);
    });

    it('refuses a file over the limit with the file-too-large message', async () => {
      const big = Buffer.concat([png, Buffer.alloc(PHOTO_MAX_BYTES, 0)]);
      const res = await upload('photo', big);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: 'The file is too large. It must be under 5 MB.', type: 'too_large' });
      expect((await api(server.app, 'GET', '/api/me', { token })).json().photo_url).toBeNull();
    });

    it('refuses what is not an image, whatever its name and declared type', async () => {
      const svg = await upload('photo', Buffer.from('<svg onload="alert(1)"></svg>'), 'x.png', 'image/png');
      expect(svg.statusCode).toBe(422);
      expect(svg.json().data).toEqual(['photo: must be a PNG, JPEG, GIF or WebP image']);
    });

    it('refuses a missing photo field, a non-multipart body and an anonymous upload', async () => {
      const wrongField = await upload('avatar', png);
      expect(wrongField.statusCode).toBe(422);
      expect(wrongField.json().data).toEqual(['photo: is required']);
      const json = await api(server.app, 'POST', '/api/me/photo', { token, body: { photo: 'x' } });
      expect(json.statusCode).toBe(415);
      expect(json.json().message).toBe('Send the image as multipart/form-data in the field "photo".');
      const anon = await server.app.inject({ method: 'POST', url: '/api/me/photo', payload: multipart('photo', png).payload, headers: { 'content-type': multipart('photo', png).headers['content-type'] } });
      expect(anon.statusCode).toBe(401);
    });

    it('refuses two files in one upload', async () => {
      const boundary = '----cairnTwoFiles';
      const part = (name: string) => Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`), png, Buffer.from('\r\n')]);
      const payload = Buffer.concat([part('a.png'), part('b.png'), Buffer.from(`--${boundary}--\r\n`)]);
      const res = await server.app.inject({ method: 'POST', url: '/api/me/photo', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(422);
      expect(res.json().data).toEqual(['photo: send one image only']);
    });

    it('serves nothing outside the uploads folder', async () => {
      for (const url of ['/api/files/../config.json', '/api/files/photos/..%2F..%2Fetc%2Fpasswd', '/api/files/photos/missing.png', '/api/files/photos']) {
        const res = await server.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
      }
    });
  });
});
