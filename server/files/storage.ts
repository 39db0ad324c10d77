import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context';

/**
 * Uploaded files live under `${dataDir}/uploads/{folder}/{random name}` and are served at
 * `/api/files/{folder}/{name}`. Names are 128-bit random, so a URL is a capability: it can be put
 * in an <img> (which sends no bearer token) without listing or guessing being possible.
 */
export const FILES_PREFIX = '/api/files/';
const FOLDER = /^[a-z0-9-]{1,40}$/;
/** Photos and image attachments keep their image type; other attachments are stored as `.bin`. */
const NAME = /^[A-Za-z0-9_-]{1,64}\.(png|jpg|gif|webp|bin)$/;

export const uploadsDir = (ctx: AppContext) => path.join(ctx.config.dataDir, 'uploads');

/** The file behind a relative path `{folder}/{name}`, or null if the path is not one of ours. */
export function resolveUpload(ctx: AppContext, relative: string): string | null {
  const parts = relative.split('/');
  if (parts.length !== 2 || !FOLDER.test(parts[0]!) || !NAME.test(parts[1]!)) return null;
  return path.join(uploadsDir(ctx), parts[0]!, parts[1]!);
}

/** Stores the bytes and answers the URL to serve them at. */
export async function saveUpload(ctx: AppContext, folder: string, data: Buffer, ext: string): Promise<string> {
  if (!FOLDER.test(folder)) throw new Error(`Bad upload folder ${folder}`);
  const name = `${crypto.randomBytes(16).toString('base64url')}.${ext}`;
  const dir = path.join(uploadsDir(ctx), folder);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, name), data);
  return FILES_PREFIX + folder + '/' + name;
}

/** Removes a file we served at `url`; other URLs (external avatars) and missing files are ignored. */
export async function deleteUpload(ctx: AppContext, url: string | null | undefined): Promise<void> {
  if (!url || !url.startsWith(FILES_PREFIX)) return;
  const file = resolveUpload(ctx, url.slice(FILES_PREFIX.length));
  if (!file) return;
  await fs.rm(file, { force: true });
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
