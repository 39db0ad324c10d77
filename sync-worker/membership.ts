/**
 * Which workspaces the signed-in user is a member of, for the engine's catch-up scope
 * (engine.ts `readsPerBoard`): a member follows the workspace-wide /changes, anyone else (a
 * guest of a public board, or invited to one board) catches up per board, as the server allows.
 */
import type { Clock } from './clock';
import type { HttpClient } from './http';

/** A workspace missing from the list is asked about again at most this often (a new membership). */
export const MEMBERSHIP_RECHECK_MS = 60_000;

export class WorkspaceMembership {
  private teams: Set<number> | null = null;
  private fetchedAt = -Infinity;
  private fetching: Promise<void> | null = null;

  constructor(
    private readonly http: HttpClient,
    private readonly clock: Clock,
  ) {}

  /**
   * Whether the user reads this workspace from outside (not a verified member). Unknown (never
   * answered, e.g. offline since sign-in) counts as a member: that is who opens a workspace's
   * boards almost always, and a refused workspace-wide catch-up fails without harm.
   */
  async isOutside(teamId: number): Promise<boolean> {
    if (!this.teams?.has(teamId) && this.clock.now() - this.fetchedAt >= MEMBERSHIP_RECHECK_MS) await this.fetch();
    return this.teams !== null && !this.teams.has(teamId);
  }

  private fetch(): Promise<void> {
    this.fetching ??= this.http
      .request<{ data?: { id: number }[] }>('get', '/api/me/workspaces')
      .then((response) => {
        if (!response.ok || !Array.isArray(response.body?.data)) return;
        this.teams = new Set(response.body.data.map((team) => team.id));
        this.fetchedAt = this.clock.now();
      })
      .catch(() => undefined)
      .finally(() => {
        this.fetching = null;
      });
    return this.fetching;
  }
}
