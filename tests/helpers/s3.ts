import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../../server/files/config';

/**
 * An S3-compatible server on a random loopback port for one test file (s3rver: the S3 REST
 * protocol over a folder; decision 0190). Its bucket is made by the store's own `prepare()`
 * (CreateBucket), as at a server's start.
 */
export async function startS3(bucket = 'cairn-test'): Promise<{ config: S3Config; env: Record<string, string>; stop(): Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials; it accepts any signature, so the test store signs as a real one would.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    config: { bucket, endpoint, publicEndpoint: endpoint, region: 'us-east-1', credentials, forcePathStyle: true },
    env: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: credentials.accessKeyId, S3_SECRET_ACCESS_KEY: credentials.secretAccessKey, S3_FORCE_PATH_STYLE: 'true' },
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
