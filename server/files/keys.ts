/**
 * Upload keys: the `{folder}/{name}` part of a file's URL (`/api/files/{key}`), the same in every
 * store. Names are 128-bit random, so a URL is a capability (decision 0095).
 */
export const FOLDER = /^[a-z0-9-]{1,40}$/;
/** Photos and image attachments keep their image type; other attachments are stored as `.bin`. */
export const NAME = /^[A-Za-z0-9_-]{1,64}\.(png|jpg|gif|webp|bin)$/;

/** True when `key` is `{folder}/{name}` as uploads are named (nothing else is ever read or written). */
export function isUploadKey(key: string): boolean {
  const parts = key.split('/');
  return parts.length === 2 && FOLDER.test(parts[0]!) && NAME.test(parts[1]!);
}
