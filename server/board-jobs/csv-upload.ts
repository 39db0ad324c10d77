import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { AppContext } from '../context';

/**
 * Where an uploaded CSV waits for its import (issue #31): the request streams the file and
 * answers at once; the job reads it in its first phase, in a worker thread.
 *
 * On the embedded database the file goes to `DATA_DIR/imports/{job}.csv`: the server is the only
 * process of that data directory, so the file is exactly as durable and as visible as the
 * database beside it, and writing it is I/O off the server's thread (40 MB into PGlite would be
 * WASM on it). On PostgreSQL another API server may run the job, so the text goes into the job
 * row's payload (PostgreSQL's own process stores it; this thread only sends it).
 */

export const uploadDir = (ctx: AppContext) => path.join(ctx.config.dataDir, 'imports');
export const uploadFile = (ctx: AppContext, name: string) => path.join(uploadDir(ctx), path.basename(name));

/** The file's stream to disk (embedded) under the job id's name, or into memory (PostgreSQL). */
export async function receiveUpload(ctx: AppContext, jobId: string, file: Readable): Promise<({ file: string } | { text: string }) & { bytes: number }> {
  if (ctx.config.databaseUrl) {
    const chunks: Buffer[] = [];
    for await (const chunk of file) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    return { text: bytes.toString('utf8'), bytes: bytes.length };
  }
  const name = `${jobId}.csv`;
  await fsp.mkdir(uploadDir(ctx), { recursive: true });
  try {
    await pipeline(file, fs.createWriteStream(uploadFile(ctx, name)));
  } catch (error) {
    await removeUpload(ctx, name);
    throw error;
  }
  return { file: name, bytes: (await fsp.stat(uploadFile(ctx, name))).size };
}

/** Removes a job's uploaded file (a missing one is fine). */
export async function removeUpload(ctx: AppContext, name: string | undefined): Promise<void> {
  if (name) await fsp.rm(uploadFile(ctx, name), { force: true });
}
