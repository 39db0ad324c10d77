import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from './config';
import type { FileStore, StoredObject } from './store';
import { isUploadKey } from './keys';

type Sdk = typeof import('@aws-sdk/client-s3');

/**
 * Uploads in a bucket of an S3-compatible service, through the official AWS SDK v3 client
 * (decision 0190). Object keys are the upload keys (`{folder}/{name}`). The SDK is loaded on first
 * use, so a server on the local disk never pays for it.
 *
 * Checksums are sent only where S3 requires them (`WHEN_REQUIRED`): the SDK's newer default
 * (a CRC trailer on every upload) is refused by several self-hosted stores, and our objects are
 * small and written once.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  private loaded: Promise<{ sdk: Sdk; client: S3Client; signer: S3Client }> | null = null;

  constructor(readonly config: S3Config) {}

  private load() {
    this.loaded ??= (async () => {
      const sdk = await import('@aws-sdk/client-s3');
      const make = (endpoint: string | null) =>
        new sdk.S3Client({
          region: this.config.region,
          ...(endpoint ? { endpoint } : {}),
          forcePathStyle: this.config.forcePathStyle,
          ...(this.config.credentials ? { credentials: this.config.credentials } : {}),
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
          maxAttempts: 3,
        });
      const client = make(this.config.endpoint);
      // A signed URL names the host the browser will ask; sign for the public address when it differs.
      const signer = this.config.publicEndpoint && this.config.publicEndpoint !== this.config.endpoint ? make(this.config.publicEndpoint) : client;
      return { sdk, client, signer };
    })();
    return this.loaded;
  }

  private static missing(error: unknown): boolean {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
  }

  private key(key: string): string {
    if (!isUploadKey(key)) throw new Error(`Not an upload key: ${key}`);
    return key;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const { sdk, client } = await this.load();
    await client.send(new sdk.PutObjectCommand({ Bucket: this.config.bucket, Key: this.key(key), Body: data, ContentType: contentType, ContentLength: data.length }));
  }

  async read(key: string): Promise<{ stream: Readable; size: number } | null> {
    const { sdk, client } = await this.load();
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: this.key(key) }));
      return { stream: answer.Body as Readable, size: Number(answer.ContentLength ?? 0) };
    } catch (error) {
      if (S3FileStore.missing(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    const { sdk, client } = await this.load();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.config.bucket, Key: this.key(key) }));
      return { key, size: Number(head.ContentLength ?? 0), modified: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (S3FileStore.missing(error)) return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    const { sdk, client } = await this.load();
    // S3 answers 204 for a key that is not there too.
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.key(key) }));
  }

  async *list(): AsyncIterable<StoredObject> {
    const { sdk, client } = await this.load();
    let token: string | undefined;
    do {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.config.bucket, ContinuationToken: token, MaxKeys: 1000 }));
      for (const object of page.Contents ?? []) {
        if (object.Key && isUploadKey(object.Key)) yield { key: object.Key, size: Number(object.Size ?? 0), modified: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async signedUrl(key: string, opts: { contentType: string; disposition?: string; expiresInSec: number }): Promise<string> {
    const { sdk, signer } = await this.load();
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    const command = new sdk.GetObjectCommand({
      Bucket: this.config.bucket,
      Key: this.key(key),
      // Part of the signature: the browser gets our type and disposition, whatever was stored.
      ResponseContentType: opts.contentType,
      ...(opts.disposition ? { ResponseContentDisposition: opts.disposition } : {}),
      ResponseCacheControl: 'private, max-age=31536000, immutable',
    });
    return getSignedUrl(signer, command, { expiresIn: opts.expiresInSec });
  }

  async check(): Promise<void> {
    const { sdk, client } = await this.load();
    await client.send(new sdk.HeadBucketCommand({ Bucket: this.config.bucket }));
  }

  /** Creates the bucket when it does not exist yet (at start; a store that refuses says why). */
  async prepare(): Promise<void> {
    const { sdk, client } = await this.load();
    try {
      await client.send(new sdk.HeadBucketCommand({ Bucket: this.config.bucket }));
      return;
    } catch (error) {
      if (!S3FileStore.missing(error)) throw error;
    }
    await client.send(new sdk.CreateBucketCommand({ Bucket: this.config.bucket }));
  }
}
