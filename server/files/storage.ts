import crypto from 'node:crypto';
import type { AppContext } from '../context';
import { releaseStorage } from './storage-figure';
import { noteStorageRefused, reserveWorkspaceStorage } from '../billing/storage-limit';
import { ApiError } from '../http/errors';
import { fileStoreFor, type FileStore } from './store';
import { FOLDER, isUploadKey } from './keys';

/**
 * Uploaded files are served at `/api/files/{folder}/{random name}`; the bytes live in the server's
 * FileStore (server/files/store.ts: `DATA_DIR/uploads` or an S3 bucket, decision 0190) under the
 * key `{folder}/{name}`. Names are 128-bit random, so a URL is a capability: it can be put in an
 * <img> (which sends no bearer token) without listing or guessing being possible.
 *
 * Every file has a row in `uploads` (its size and the workspace it counts against), written and
 * committed before the file itself, so no stored file is ever unknown to the sweep
 * (server/files/sweep.ts), which removes the files nothing references any more.
 */
export const FILES_PREFIX = '/api/files/';
export { FOLDER, NAME } from './keys';

/** The server's file store. */
export const fileStore = (ctx: AppContext): FileStore => fileStoreFor(ctx.config);

/** The key of a relative path `{folder}/{name}`, or null if the path is not one of ours. */
export function uploadKey(relative: string): string | null {
  return isUploadKey(relative) ? relative : null;
}

/**
 * Stores the bytes and answers the URL to serve them at. With `teamId` the bytes count against
 * that workspace's storage figure, and an upload that would pass its plan's storage (decision
 * 0260) is refused (413 storage_full) before anything is written.
 */
export async function saveUpload(ctx: AppContext, folder: string, data: Buffer, ext: string, opts: { teamId?: number | null } = {}): Promise<string> {
  if (!FOLDER.test(folder)) throw new Error(`Bad upload folder ${folder}`);
  const name = `${crypto.randomBytes(16).toString('base64url')}.${ext}`;
  const relative = `${folder}/${name}`;
  const teamId = opts.teamId ?? null;
  await ctx.db
    .transaction()
    .execute(async (trx) => {
      if (teamId !== null) await reserveWorkspaceStorage(ctx, trx, teamId, data.length, relative, ctx.now());
      await trx.insertInto('uploads').values({ path: relative, team_id: teamId, size: data.length, created_at: ctx.now(), unreferenced_since: null }).execute();
    })
    .catch(async (error: unknown) => {
      // Refused for the plan's storage: the owner is told uploads are blocked (decision 0260).
      if (teamId !== null && error instanceof ApiError && error.type === 'storage_full') await noteStorageRefused(ctx, teamId, data.length, ctx.now()).catch(() => undefined);
      throw error;
    });
  try {
    await fileStore(ctx).put(relative, data, (IMAGE_TYPES as Record<string, string>)[ext] ?? 'application/octet-stream');
  } catch (error) {
    // Give the bytes back at once; if even that fails the sweep forgets the row after the grace.
    await forgetUpload(ctx, relative).catch(() => undefined);
    throw error;
  }
  return FILES_PREFIX + relative;
}

/** Removes a file we served at `url`; other URLs (external avatars) and missing files are ignored. */
export async function deleteUpload(ctx: AppContext, url: string | null | undefined): Promise<void> {
  if (!url || !url.startsWith(FILES_PREFIX)) return;
  const relative = url.slice(FILES_PREFIX.length);
  if (!uploadKey(relative)) return;
  await forgetUpload(ctx, relative);
}

/**
 * Drops the file's row (lowering its workspace's figure) and the file, in one transaction: the
 * file goes before the commit, so no sweep can find it in the store without its row and adopt it again.
 */
async function forgetUpload(ctx: AppContext, relative: string): Promise<void> {
  const key = uploadKey(relative);
  if (!key) return;
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('uploads').where('path', '=', relative).returning(['team_id', 'size']).executeTakeFirst();
    if (row?.team_id != null) await releaseStorage(trx, row.team_id, Number(row.size));
    await fileStore(ctx).remove(key);
  });
}

export const IMAGE_TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;
export type ImageExt = keyof typeof IMAGE_TYPES;

/**
 * The image type from the file's first bytes (never from the name or the declared type, which the
 * sender controls). SVG is not accepted: it can carry script.
 */
export function sniffImage(data: Buffer): ImageExt | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpg';
  if (data.length >= 6 && (data.subarray(0, 6).toString('latin1') === 'GIF87a' || data.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'gif';
  if (data.length >= 12 && data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return null;
}
