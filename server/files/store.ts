import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FilesConfig } from './config';
import { S3FileStore } from './s3-store';
import { FOLDER, NAME, isUploadKey } from './keys';

/**
 * Where upload bytes live (decision 0190). Keys are the `{folder}/{name}` part of the file's URL
 * (`/api/files/{key}`); rows in `uploads`, the storage figures and the sweep's bookkeeping stay in
 * the database whatever the store. Two stores: the local disk under `DATA_DIR/uploads` (the
 * embedded default) and an S3-compatible bucket (`S3_BUCKET`…; server/files/s3-store.ts), which
 * every API server behind a load balancer shares.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Writes the bytes under `key` (a new random key each upload: objects never change). */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object's bytes as a stream with its size, or null when there is none. */
  read(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Size and time of the object, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  /** Removes the object; a missing one is fine. */
  remove(key: string): Promise<void>;
  /** Every object whose key has the shape of an upload (`{folder}/{name}`), for the sweep's adoption pass. */
  list(): AsyncIterable<StoredObject>;
  /**
   * A URL the browser can fetch the object from directly for `expiresInSec`, with the answer's
   * type and disposition fixed by the signature; null when the store has none (local disk).
   */
  signedUrl(key: string, opts: { contentType: string; disposition?: string; expiresInSec: number }): Promise<string | null>;
  /** Whether the store answers (readiness). Throws with the reason when it does not. */
  check(): Promise<void>;
  /** Gets the store ready at start: the folder, or the bucket when it does not exist yet. */
  prepare(): Promise<void>;
}

export interface StoredObject {
  key: string;
  size: number;
  modified: Date;
}

/** Files under one folder on this machine's disk (the embedded default; one shared volume for several servers). */
export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;

  constructor(readonly root: string) {}

  private file(key: string): string {
    if (!isUploadKey(key)) throw new Error(`Not an upload key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.file(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(file, data);
  }

  async read(key: string): Promise<{ stream: Readable; size: number } | null> {
    const stat = await this.stat(key);
    if (!stat) return null;
    return { stream: fs.createReadStream(this.file(key)), size: stat.size };
  }

  async stat(key: string): Promise<StoredObject | null> {
    const stat = await fsp.stat(this.file(key)).catch(() => null);
    return stat?.isFile() ? { key, size: stat.size, modified: stat.mtime } : null;
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }

  async *list(): AsyncIterable<StoredObject> {
    const folders = await fsp.readdir(this.root, { withFileTypes: true }).catch(() => []);
    for (const folder of folders) {
      if (!folder.isDirectory() || !FOLDER.test(folder.name)) continue;
      for (const name of await fsp.readdir(path.join(this.root, folder.name)).catch(() => [] as string[])) {
        if (!NAME.test(name)) continue;
        const found = await this.stat(`${folder.name}/${name}`);
        if (found) yield found;
      }
    }
  }

  async signedUrl(): Promise<null> {
    return null;
  }

  async check(): Promise<void> {
    await fsp.mkdir(this.root, { recursive: true });
    await fsp.access(this.root, fs.constants.W_OK);
  }

  async prepare(): Promise<void> {
    await fsp.mkdir(this.root, { recursive: true });
  }
}

const stores = new WeakMap<FilesConfig, FileStore>();

/**
 * The store of a server's files settings, made once per config object (every context of one
 * server shares it; each test server has its own). The S3 store loads the AWS SDK on first use.
 */
export function fileStoreFor(config: { files: FilesConfig; dataDir: string }): FileStore {
  let store = stores.get(config.files);
  if (!store) {
    store = config.files.s3 ? new S3FileStore(config.files.s3) : new LocalFileStore(path.join(config.dataDir, 'uploads'));
    stores.set(config.files, store);
  }
  return store;
}
