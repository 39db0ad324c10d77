import { useEffect, useState } from 'react';

/**
 * Live workspace events (shell.md §7: team.{id}.users and team.{id}.permissions), as the sync
 * worker passes them on (sync-worker/worker-realtime.ts → src/api/worker-session.ts). Screens that
 * show a workspace's members, roles, name or permission entries read `useTeamVersion(teamId)` and
 * load again when it moves; the workspaces list is refreshed by the session wiring.
 */
export interface TeamEvent {
  teamId: number;
  channel: 'users' | 'permissions';
  event: string;
  data: unknown;
}

const versions = new Map<number, number>();
const listeners = new Set<(event: TeamEvent) => void>();

export const teamEvents = {
  emit(event: TeamEvent) {
    versions.set(event.teamId, (versions.get(event.teamId) ?? 0) + 1);
    for (const listener of [...listeners]) listener(event);
  },
  subscribe(listener: (event: TeamEvent) => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  version: (teamId: number) => versions.get(teamId) ?? 0,
};

/** A number that grows with every live event of this workspace (0 before any). */
export function useTeamVersion(teamId: number | null | undefined): number {
  const [version, setVersion] = useState(() => (teamId == null ? 0 : teamEvents.version(teamId)));
  useEffect(() => {
    if (teamId == null) return;
    setVersion(teamEvents.version(teamId));
    return teamEvents.subscribe((event) => {
      if (event.teamId === teamId) setVersion(teamEvents.version(teamId));
    });
  }, [teamId]);
  return version;
}

/** Whether the event changes the user's list of workspaces (renamed, deleted, the user removed). */
export function changesWorkspaceList(event: TeamEvent, userId: number | null): boolean {
  if (event.channel !== 'users') return false;
  if (event.event === 'team.saved' || event.event === 'team.deleted') return true;
  if (event.event === 'member.removed') return (event.data as { user_id?: unknown } | null)?.user_id === userId;
  if (event.event === 'member.saved') return (event.data as { member?: { id?: unknown; user_id?: unknown } } | null)?.member?.id === userId;
  return false;
}
