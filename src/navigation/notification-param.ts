/**
 * The `notification` query parameter marks that notification read on any route and is then removed
 * from the URL (shell.md §2). Returns the id to mark and the query without it, or null.
 */
export function takeNotificationParam(search: Record<string, unknown>): { id: string; rest: Record<string, unknown> } | null {
  const value = search.notification;
  if (value === undefined || value === null || value === '') return null;
  const { notification: _removed, ...rest } = search;
  return { id: String(value), rest };
}

export type MarkRead = (body: { notification_ids: string[] }) => Promise<unknown>;

/** Marks it read; errors are swallowed (workspace.md §4: mark calls swallow errors). */
export async function markNotificationRead(id: string, put: MarkRead): Promise<void> {
  try {
    await put({ notification_ids: [id] });
  } catch {
    // swallowed on purpose
  }
}
