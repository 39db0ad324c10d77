import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { startS3 } from '../helpers/s3';
import { loadFilesConfig } from '../../server/files/config';
import { fileStore } from '../../server/files/storage';
import { contentSecurityPolicy } from '../../server/http/security-headers';
import { board, createTeam, item } from './sync-fixtures';

/**
 * Downloads through the file stores (decision 0190): the API decides (an upload's row must exist),
 * then streams the bytes from either store, or, with FILE_DOWNLOADS=redirect on S3, answers a
 * short 302 to a signed URL of the bucket whose type and disposition are fixed by the signature.
 * The S3 cases run against s3rver (an S3-compatible server) through the AWS SDK.
 */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 3)]);

function attachment(teamId: number, itemId: string, data: Buffer, name: string, token: string) {
  const boundary = '----cairnstore';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { method: 'POST' as const, url: `/api/${teamId}/attachments?item_id=${itemId}`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } };
}

describe('file stores: settings', () => {
  it('reads the S3 settings, and refuses half of them', () => {
    const s3 = loadFilesConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://store:9000/', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_FORCE_PATH_STYLE: 'true', FILE_DOWNLOADS: 'redirect', FILE_SIGNED_URL_SECONDS: '60' });
    expect(s3).toMatchObject({
      s3: { bucket: 'b', endpoint: 'http://store:9000', publicEndpoint: 'http://store:9000', region: 'us-east-1', credentials: { accessKeyId: 'k', secretAccessKey: 's' }, forcePathStyle: true },
      downloads: 'redirect',
      signedUrlSeconds: 60,
    });
    expect(loadFilesConfig({ S3_BUCKET: 'b', S3_PUBLIC_ENDPOINT: 'https://files.example.com' }).s3).toMatchObject({ endpoint: null, publicEndpoint: 'https://files.example.com', credentials: null, forcePathStyle: false });
    expect(() => loadFilesConfig({ S3_ENDPOINT: 'http://store:9000' })).toThrow(/without S3_BUCKET/);
    expect(() => loadFilesConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(/both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    expect(() => loadFilesConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'store:9000' })).toThrow(/S3_ENDPOINT must be an http\(s\) URL/);
    expect(() => loadFilesConfig({ FILE_DOWNLOADS: 'redirect' })).toThrow(/needs object storage/);
    expect(() => loadFilesConfig({ FILE_DOWNLOADS: 'teleport' })).toThrow(/stream or redirect/);
  });

  it('names the store in the content policy only when browsers fetch from it', () => {
    // Only the fields the policy reads.
    const base = { pusher: { appId: 'a', key: 'k', secret: 'x'.repeat(20), host: null, port: null, useTLS: false }, files: loadFilesConfig({}) } as never as Parameters<typeof contentSecurityPolicy>[0];
    expect(contentSecurityPolicy(base)['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    const redirect = { ...base, files: loadFilesConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://store:9000', S3_PUBLIC_ENDPOINT: 'https://files.example.com/x', FILE_DOWNLOADS: 'redirect' }) };
    expect(contentSecurityPolicy(redirect)['img-src']).toContain('https://files.example.com');
    const stream = { ...base, files: loadFilesConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://store:9000' }) };
    expect(contentSecurityPolicy(stream)['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });
});


describe.each(['local', 's3-stream', 's3-redirect'] as const)('downloads (%s)', (mode) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3>> | null = null;
  let token: string;
  let teamId: number;
  let itemId: string;

  beforeAll(async () => {
    if (mode !== 'local') s3 = await startS3(`cairn-${mode}`);
    const files = s3 ? { ...loadFilesConfig({}), s3: s3.config, downloads: mode === 's3-redirect' ? ('redirect' as const) : ('stream' as const), signedUrlSeconds: 120 } : undefined;
    server = await createTestServer(files ? { config: { files } } : {});
    await fileStore(server.ctx).prepare();
    const owner = await createUserWithToken(server.ctx);
    token = owner.token;
    teamId = await createTeam(server.ctx, owner.user.id);
    const b = board();
    const i = item(b.id);
    for (const [route, rec] of [['folders', b], ['items', i]] as const) {
      const res = await server.app.inject({ method: 'PUT', url: `/api/${teamId}/${route}/${rec.id}`, payload: rec, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, res.body).toBe(200);
    }
    itemId = i.id;
  });
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  /** Follows the API's answer the way a browser would: a redirect to the store, or the bytes. */
  async function download(url: string) {
    const res = await server.app.inject({ method: 'GET', url });
    if (mode !== 's3-redirect') return { status: res.statusCode, type: res.headers['content-type'], disposition: res.headers['content-disposition'], body: res.rawPayload, via: 'api' };
    if (res.statusCode !== 302) return { status: res.statusCode, type: undefined, disposition: undefined, body: Buffer.alloc(0), via: 'api' };
    const location = String(res.headers.location);
    expect(location.startsWith(s3!.config.endpoint!)).toBe(true);
    expect(location).toMatch(/X-Amz-Signature=[0-9a-f]{64}/);
    expect(location).toMatch(/X-Amz-Expires=120/);
    expect(Number(/max-age=(\d+)/.exec(String(res.headers['cache-control']))?.[1])).toBeLessThan(120);
    const direct = await fetch(location);
    return { status: direct.status, type: direct.headers.get('content-type') ?? undefined, disposition: direct.headers.get('content-disposition') ?? undefined, body: Buffer.from(await direct.arrayBuffer()), via: 'store' };
  }

  it('serves an image as an image and anything else as a named download, byte for byte', async () => {
    const image = await server.app.inject(attachment(teamId, itemId, PNG, 'p.png', token));
    expect(image.statusCode, image.body).toBe(200);
    const got = await download(image.json().data.url);
    expect(got).toMatchObject({ status: 200, type: 'image/png', via: mode === 's3-redirect' ? 'store' : 'api' });
    expect(got.body.equals(PNG)).toBe(true);

    const data = Buffer.from('%PDF-1.4 not really\n'.repeat(50));
    const doc = await server.app.inject(attachment(teamId, itemId, data, 'Résumé.pdf', token));
    expect(doc.statusCode, doc.body).toBe(200);
    const file = await download(`${doc.json().data.url}?name=${encodeURIComponent('Résumé.pdf')}`);
    expect(file).toMatchObject({ status: 200, type: 'application/octet-stream' });
    expect(file.disposition).toBe(`attachment; filename="R_sum_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf`);
    expect(file.body.equals(data)).toBe(true);
  });

  it('refuses a file whose row is gone even while its bytes are still stored, and paths that are not ours', async () => {
    const res = await server.app.inject(attachment(teamId, itemId, Buffer.alloc(30, 1), 'x.bin', token));
    const url = res.json().data.url as string;
    const key = url.slice('/api/files/'.length);
    await server.ctx.db.deleteFrom('uploads').where('path', '=', key).execute();
    expect(await fileStore(server.ctx).stat(key)).toMatchObject({ size: 30 });
    expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    for (const bad of ['/api/files/attachments/../x.bin', '/api/files/attachments', '/api/files/a/b/c.png', '/api/files/attachments/x.exe']) {
      expect((await server.app.inject({ method: 'GET', url: bad })).statusCode, bad).toBe(404);
    }
  });
});
