import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { attribute, board, createTeam, item, newId, value, type SignedIn } from './sync-fixtures';
import { sweepUploads } from '../../server/files/sweep';
import { Messages } from '../../schema/messages';
import { loadFilesConfig } from '../../server/files/config';
import { fileStore } from '../../server/files/storage';
import { startS3 } from '../helpers/s3';

/**
 * Uploads are removed once nothing references them (after an item, a board or a workspace is
 * deleted for good, or when an upload was never saved into a value), never while a live or
 * trashed record still does; every workspace's storage figure follows, and its limit refuses uploads.
 * The same cases run on both file stores (decision 0190): the local disk, and an S3 bucket on an
 * S3-compatible server (s3rver) reached through the AWS SDK.
 */
describe.each(['local', 's3'] as const)('files (%s store): clean-up of unreferenced uploads and the storage figure', (kind) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3>> | null = null;
  let owner: SignedIn;
  const HOUR = 3_600_000;

  /** A fresh workspace of `owner` with a board, an item and an attachments attribute. */
  async function workspace() {
    const teamId = await createTeam(server.ctx, owner.user.id);
    const b = board();
    const i = item(b.id);
    const files = attribute(b.id, { kind: 'attachments', name: 'Files' });
    for (const [route, rec] of [['folders', b], ['items', i], ['attributes', files]] as const) {
      const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${rec.id}`, { token: owner.token, body: rec });
      expect(res.statusCode, res.body).toBe(200);
    }
    return { teamId, b, i, files };
  }

  function upload(teamId: number, itemId: string, data: Buffer, token = owner.token) {
    const boundary = '----cairn' + Math.random().toString(16).slice(2);
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return server.app.inject({
      method: 'POST',
      url: `/api/${teamId}/attachments?item_id=${itemId}`,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
    });
  }

  async function uploaded(teamId: number, itemId: string, size: number) {
    const res = await upload(teamId, itemId, Buffer.alloc(size, 7));
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: string; name: string; size: number; url: string };
  }

  const put = async (teamId: number, route: string, body: { id: string } & Record<string, unknown>) => {
    const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${body.id}`, { token: owner.token, body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const del = async (teamId: number, route: string, id: string, permanent = false) => {
    const res = await api(server.app, 'DELETE', `/api/${teamId}/${route}/${id}${permanent ? '?permanent=1' : ''}`, { token: owner.token });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** Whether the store holds the file's bytes. */
  const onDisk = async (url: string) => (await fileStore(server.ctx).stat(url.slice('/api/files/'.length))) !== null;
  /** How many files of one folder the store holds. */
  const storedIn = async (folder: string) => {
    let n = 0;
    for await (const object of fileStore(server.ctx).list()) if (object.key.startsWith(`${folder}/`)) n += 1;
    return n;
  };
  const served = async (url: string) => (await server.app.inject({ method: 'GET', url })).statusCode;
  const figure = async (teamId: number) => {
    const res = await api(server.app, 'GET', `/api/teams/${teamId}/usage`, { token: owner.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.storage_used as number;
  };
  /** The invariant: a workspace's figure is the sum of its upload rows. */
  const rowsBytes = async (teamId: number) => {
    const rows = await server.ctx.db.selectFrom('uploads').select('size').where('team_id', '=', teamId).execute();
    return rows.reduce((sum, r) => sum + Number(r.size), 0);
  };
  const sweepNow = () => sweepUploads(server.ctx, { graceMs: 0 });
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);
  /** A multipart request with a PNG in the field "photo", signed in as the owner. */
  function photoUpload() {
    const boundary = '----cairnphoto';
    const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`), png, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${owner.token}` } };
  }

  beforeAll(async () => {
    if (kind === 's3') s3 = await startS3();
    server = await createTestServer(s3 ? { config: { files: { ...loadFilesConfig({}), s3: s3.config } } } : {});
    await fileStore(server.ctx).prepare();
    expect(fileStore(server.ctx).kind).toBe(kind);
    owner = await createUserWithToken(server.ctx);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  it('counts an upload against its workspace and shows the figure to members only', async () => {
    const w = await workspace();
    expect(await figure(w.teamId)).toBe(0);
    await uploaded(w.teamId, w.i.id, 1000);
    await uploaded(w.teamId, w.i.id, 234);
    expect(await figure(w.teamId)).toBe(1234);
    const usage = (await api(server.app, 'GET', `/api/teams/${w.teamId}/usage`, { token: owner.token })).json().data;
    // A workspace on no subscription is not under a plan (decision 0260): no limit but the per-workspace cap.
    expect(usage).toEqual({ storage_used: 1234, storage_limit: server.ctx.config.files.workspaceStorageLimitBytes ?? Number.MAX_SAFE_INTEGER, subscription_storage_used: null });
    const stranger = await createUserWithToken(server.ctx);
    expect((await api(server.app, 'GET', `/api/teams/${w.teamId}/usage`, { token: stranger.token })).statusCode).toBe(403);
    expect((await api(server.app, 'GET', `/api/teams/${w.teamId}/usage`)).statusCode).toBe(401);
    // The subscription the workspace is on sums its workspaces' figures.
    const subscription = async () => ((await api(server.app, 'GET', '/api/subscription', { token: owner.token })).json().data as { id: number; usage: { storage: number } }[])[0]!;
    const sub = await subscription();
    expect(sub.usage.storage).toBe(0);
    await server.ctx.db.updateTable('teams').set({ subscription_id: sub.id }).where('id', '=', w.teamId).execute();
    expect((await subscription()).usage.storage).toBe(1234);
  });

  it('keeps a file while its item is in the trash, removes it once the item is deleted for good', async () => {
    const w = await workspace();
    const kept = await uploaded(w.teamId, w.i.id, 500);
    const entry = await uploaded(w.teamId, w.i.id, 300);
    const other = item(w.b.id);
    await put(w.teamId, 'items', other);
    await put(w.teamId, 'values', value(w.b.id, w.i.id, w.files.id, [entry]));
    await put(w.teamId, 'values', value(w.b.id, other.id, w.files.id, [kept]));
    expect(await figure(w.teamId)).toBe(800);

    await del(w.teamId, 'items', w.i.id);
    await sweepNow();
    expect(await onDisk(entry.url)).toBe(true);
    expect(await served(entry.url)).toBe(200);
    // Browsers may cache it, shared caches may not (they would outlive the file).
    expect((await server.app.inject({ method: 'GET', url: entry.url })).headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(await figure(w.teamId)).toBe(800);

    await del(w.teamId, 'items', w.i.id, true);
    const result = await sweepNow();
    expect(result).toMatchObject({ ran: true });
    expect(await onDisk(entry.url)).toBe(false);
    expect(await served(entry.url)).toBe(404);
    expect(await figure(w.teamId)).toBe(500);
    // The other item's file stays.
    expect(await onDisk(kept.url)).toBe(true);
    expect(await rowsBytes(w.teamId)).toBe(500);
  });

  it('removes the files of a board deleted for good, and of a comment’s image', async () => {
    const w = await workspace();
    const inValue = await uploaded(w.teamId, w.i.id, 111);
    const inComment = await uploaded(w.teamId, w.i.id, 222);
    await put(w.teamId, 'values', value(w.b.id, w.i.id, w.files.id, [inValue]));
    await put(w.teamId, 'comments', { id: newId(), board_id: w.b.id, item_id: w.i.id, parent_id: null, text: { html: `<p>see <img src="${inComment.url}"></p>` } } as never);
    await sweepNow();
    expect((await onDisk(inValue.url)) && (await onDisk(inComment.url))).toBe(true);

    await del(w.teamId, 'folders', w.b.id);
    await sweepNow();
    expect((await onDisk(inValue.url)) && (await onDisk(inComment.url))).toBe(true);
    expect(await figure(w.teamId)).toBe(333);

    await del(w.teamId, 'folders', w.b.id, true);
    await sweepNow();
    expect(await onDisk(inValue.url)).toBe(false);
    expect(await onDisk(inComment.url)).toBe(false);
    expect(await figure(w.teamId)).toBe(0);
  });

  it('removes the files of a deleted workspace, its photo included', async () => {
    const w = await workspace();
    const entry = await uploaded(w.teamId, w.i.id, 400);
    await put(w.teamId, 'values', value(w.b.id, w.i.id, w.files.id, [entry]));
    const photo = await server.app.inject({ method: 'POST', url: `/api/teams/${w.teamId}/photo`, ...photoUpload() });
    expect(photo.statusCode, photo.body).toBe(200);
    const photoUrl = photo.json().data.photo_url as string;
    await server.ctx.db.updateTable('users').set({ reauthenticated_at: server.ctx.now() }).where('id', '=', owner.user.id).execute();
    expect((await api(server.app, 'DELETE', `/api/teams/${w.teamId}`, { token: owner.token })).statusCode).toBe(200);
    expect(await onDisk(entry.url)).toBe(true);

    await sweepNow();
    expect(await onDisk(entry.url)).toBe(false);
    expect(await onDisk(photoUrl)).toBe(false);
    expect(await server.ctx.db.selectFrom('uploads').select('path').where('team_id', '=', w.teamId).execute()).toEqual([]);
    expect(await server.ctx.db.selectFrom('workspace_storage').selectAll().where('team_id', '=', w.teamId).execute()).toEqual([]);
  });

  it('gives an entry taken out of a value the whole grace period: an undo claims it back', async () => {
    const w = await workspace();
    const entry = await uploaded(w.teamId, w.i.id, 50);
    const v = value(w.b.id, w.i.id, w.files.id, [entry]);
    const saved = await put(w.teamId, 'values', v);
    await sweepUploads(server.ctx, { graceMs: HOUR });

    // Removed from the value: the file stays for the grace period, counted from the first sweep
    // that found it unreferenced (not from the upload, which is long past the grace here).
    const start = new Date(Date.now() + 10 * HOUR);
    const emptied = await put(w.teamId, 'values', { ...v, value: [], row_version: saved.row_version + 1 });
    await sweepUploads(server.ctx, { now: start, graceMs: HOUR });
    await sweepUploads(server.ctx, { now: new Date(start.getTime() + HOUR / 2), graceMs: HOUR });
    expect(await onDisk(entry.url)).toBe(true);

    // Undo puts it back before the grace is over: the next sweeps keep it, however late.
    const undone = await put(w.teamId, 'values', { ...v, value: [entry], row_version: emptied.row_version + 1 });
    await sweepUploads(server.ctx, { now: new Date(start.getTime() + 5 * HOUR), graceMs: HOUR });
    expect(await onDisk(entry.url)).toBe(true);

    // Removed again and left out: gone once the grace has passed since a sweep first saw it so.
    await put(w.teamId, 'values', { ...v, value: [], row_version: undone.row_version + 1 });
    await sweepUploads(server.ctx, { now: new Date(start.getTime() + 6 * HOUR), graceMs: HOUR });
    expect(await onDisk(entry.url)).toBe(true);
    await sweepUploads(server.ctx, { now: new Date(start.getTime() + 7 * HOUR), graceMs: HOUR });
    expect(await onDisk(entry.url)).toBe(false);
    expect(await figure(w.teamId)).toBe(0);
  });

  it('collects an upload never saved into a value once older than the grace, not a fresh one', async () => {
    const w = await workspace();
    const t0 = new Date(Date.now() + 100 * HOUR);
    const old = await uploaded(w.teamId, w.i.id, 70);
    await sweepUploads(server.ctx, { now: t0, graceMs: HOUR });
    const fresh = await uploaded(w.teamId, w.i.id, 30);
    await sweepUploads(server.ctx, { now: new Date(t0.getTime() + HOUR), graceMs: HOUR });
    expect(await onDisk(old.url)).toBe(false);
    expect(await onDisk(fresh.url)).toBe(true);
    expect(await figure(w.teamId)).toBe(30);
  });

  it('adopts a stored file that has no row (written before the table) and collects it after the grace', async () => {
    // Stored without a row: written before the table, or a copied data directory or bucket.
    const stray = `attachments/${newId().replace(/[^A-Za-z0-9_-]/g, 'x')}.bin`;
    await fileStore(server.ctx).put(stray, Buffer.alloc(10), 'application/octet-stream');
    const t0 = new Date(Date.now() + 200 * HOUR);
    const first = await sweepUploads(server.ctx, { now: t0, graceMs: HOUR });
    expect(first.adopted).toBe(1);
    expect(await fileStore(server.ctx).stat(stray)).toMatchObject({ size: 10 });
    await sweepUploads(server.ctx, { now: new Date(t0.getTime() + HOUR), graceMs: HOUR });
    expect(await fileStore(server.ctx).stat(stray)).toBeNull();
  });

  it('keeps profile and workspace photos', async () => {
    const { payload, headers } = photoUpload();
    const w = await workspace();
    const teamPhoto = await server.app.inject({ method: 'POST', url: `/api/teams/${w.teamId}/photo`, payload, headers });
    expect(teamPhoto.statusCode, teamPhoto.body).toBe(200);
    const profilePhoto = await server.app.inject({ method: 'POST', url: '/api/me/photo', payload, headers });
    expect(profilePhoto.statusCode, profilePhoto.body).toBe(200);
    // A profile photo belongs to no workspace.
    expect(await figure(w.teamId)).toBe(png.length);
    await sweepNow();
    expect(await onDisk(teamPhoto.json().data.photo_url)).toBe(true);
    expect(await onDisk(profilePhoto.json().photo_url ?? profilePhoto.json().data?.photo_url)).toBe(true);
    expect(await figure(w.teamId)).toBe(png.length);
    // Replacing it removes the old one at once and gives its bytes back.
    const again = await server.app.inject({ method: 'POST', url: `/api/teams/${w.teamId}/photo`, payload, headers });
    expect(await onDisk(teamPhoto.json().data.photo_url)).toBe(false);
    expect(await onDisk(again.json().data.photo_url)).toBe(true);
    expect(await figure(w.teamId)).toBe(png.length);
  });

  it('two sweeps at once remove each file once and lower the figure once', async () => {
    const w = await workspace();
    const entries = [await uploaded(w.teamId, w.i.id, 100), await uploaded(w.teamId, w.i.id, 200), await uploaded(w.teamId, w.i.id, 300)];
    const keep = item(w.b.id);
    await put(w.teamId, 'items', keep);
    const kept = await uploaded(w.teamId, keep.id, 1000);
    await put(w.teamId, 'values', value(w.b.id, keep.id, w.files.id, [kept]));
    await put(w.teamId, 'values', value(w.b.id, w.i.id, w.files.id, entries));
    await sweepNow();
    await del(w.teamId, 'items', w.i.id);
    await del(w.teamId, 'items', w.i.id, true);

    const results = await Promise.all([sweepNow(), sweepNow(), sweepNow()]);
    expect(results.some((r) => r.ran)).toBe(true);
    const byThisTeam = (await server.ctx.db.selectFrom('uploads').select('path').where('team_id', '=', w.teamId).execute()).map((r) => r.path);
    expect(byThisTeam).toEqual([kept.url.slice('/api/files/'.length)]);
    expect(results.reduce((sum, r) => sum + r.freedBytes, 0)).toBeGreaterThanOrEqual(600);
    expect((await Promise.all(entries.map((e) => onDisk(e.url)))).some(Boolean)).toBe(false);
    expect(await figure(w.teamId)).toBe(1000);
    expect(await rowsBytes(w.teamId)).toBe(1000);
  });

  it('reads its settings from the environment and refuses nonsense at start', () => {
    const defaults = { s3: null, downloads: 'stream', signedUrlSeconds: 300 };
    // Unset: no per-workspace cap; the plan's storage limit holds (decision 0260).
    expect(loadFilesConfig({})).toEqual({ sweepIntervalMs: 60 * 60_000, graceMs: 168 * HOUR, workspaceStorageLimitBytes: null, ...defaults });
    expect(loadFilesConfig({ FILE_SWEEP_INTERVAL_MINUTES: '0', FILE_GRACE_HOURS: '1', WORKSPACE_STORAGE_LIMIT_MB: '2' })).toEqual({ sweepIntervalMs: 0, graceMs: HOUR, workspaceStorageLimitBytes: 2 * 1024 * 1024, ...defaults });
    expect(() => loadFilesConfig({ FILE_GRACE_HOURS: '-1' })).toThrow(/FILE_GRACE_HOURS must be a number of 0 or more/);
    expect(() => loadFilesConfig({ WORKSPACE_STORAGE_LIMIT_MB: 'lots' })).toThrow(/WORKSPACE_STORAGE_LIMIT_MB/);
  });

  describe('the storage limit', () => {
    let limit: number | null;
    beforeAll(() => {
      limit = server.ctx.config.files.workspaceStorageLimitBytes;
    });
    afterAll(() => {
      server.ctx.config.files.workspaceStorageLimitBytes = limit;
    });

    it('refuses an upload that would pass it with 413 storage_full, writing nothing', async () => {
      const w = await workspace();
      await uploaded(w.teamId, w.i.id, 600);
      server.ctx.config.files.workspaceStorageLimitBytes = 1000;
      const before = await storedIn('attachments');
      const refused = await upload(w.teamId, w.i.id, Buffer.alloc(401));
      expect(refused.statusCode).toBe(413);
      expect(refused.json()).toEqual({ message: Messages.storageFull, type: 'storage_full' });
      expect(await storedIn('attachments')).toBe(before);
      expect(await figure(w.teamId)).toBe(600);
      // Exactly up to the limit is fine.
      expect((await upload(w.teamId, w.i.id, Buffer.alloc(400))).statusCode).toBe(200);
      expect(await figure(w.teamId)).toBe(1000);
    });

    it('lets only as many parallel uploads through as fit', async () => {
      const w = await workspace();
      server.ctx.config.files.workspaceStorageLimitBytes = 250;
      const answers = await Promise.all([1, 2, 3, 4].map(() => upload(w.teamId, w.i.id, Buffer.alloc(100))));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 413, 413]);
      expect(await figure(w.teamId)).toBe(200);
      expect(await rowsBytes(w.teamId)).toBe(200);
    });

    it('frees room once unreferenced files are collected', async () => {
      const w = await workspace();
      server.ctx.config.files.workspaceStorageLimitBytes = 150;
      await uploaded(w.teamId, w.i.id, 100);
      expect((await upload(w.teamId, w.i.id, Buffer.alloc(100))).statusCode).toBe(413);
      await sweepNow();
      expect((await upload(w.teamId, w.i.id, Buffer.alloc(100))).statusCode).toBe(200);
    });
  });
});
