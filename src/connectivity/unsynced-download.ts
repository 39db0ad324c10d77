import type { UnsyncedExport } from '../../sync-worker/client';

/**
 * Saves the worker's "unsynced changes" file (issue #30 part 7) as a download: one JSON file named
 * by the user and the time, e.g. `cairn-unsynced-12-2026-11-29T10-02-03Z.json`. The worker
 * assembled it without any token (sync-worker/unsynced-export.ts); this only writes it out.
 */
export function unsyncedFileName(file: Pick<UnsyncedExport, 'user_id' | 'exported_at'>): string {
  const stamp = file.exported_at.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  return `cairn-unsynced-${file.user_id}-${stamp}.json`;
}

export function saveUnsyncedFile(file: UnsyncedExport): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = unsyncedFileName(file);
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** How many edits the file holds that the server does not have: queued records, drafts, conflicts, refused edits. */
export function unsyncedCount(file: UnsyncedExport): number {
  const queued = new Set(file.queue.map((r) => `${r.collection}\u0000${r.id}`)).size;
  return queued + file.drafts.length + file.conflicts.length + file.refused.length;
}
