/** What an avatar shows when there is no photo: initials and a colour that is stable per name. */
import { AVATAR_PALETTE_SIZE } from './tokens';

/** First letter of the first and last word ("Ada Lovelace" → "AL", "ada" → "A", "" → "?"). */
export function initialsOf(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/[\s@._-]+/u).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = Array.from(parts[0])[0] ?? '';
  const last = parts.length > 1 ? (Array.from(parts[parts.length - 1])[0] ?? '') : '';
  return (first + last).toLocaleUpperCase();
}

/** Index into the avatar palette (`--avatar-{n}`), the same for the same name in every session. */
export function avatarColorIndex(name: string | null | undefined, paletteSize = AVATAR_PALETTE_SIZE): number {
  // FNV-1a: tiny, stable and well spread for short strings.
  let hash = 0x811c9dc5;
  for (const char of (name ?? '').trim().toLocaleLowerCase()) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % paletteSize;
}
