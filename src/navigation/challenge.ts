import { Messages } from '../../schema/messages';

/**
 * The bot-check challenge of shell.md §4/§8: an answer with `cf-mitigated: challenge` (a proxy in
 * front of the server wants a human check) opens a verification overlay; once it is passed the
 * request is sent again, and if it is given up the request fails with "Unable to obtain
 * pre-clearance". Requests challenged while the overlay is open wait for the same outcome.
 * The overlay (src/layout/ChallengeOverlay.tsx) registers itself as the solver.
 */
export const CHALLENGE_HEADER = 'cf-mitigated';
export const CHALLENGE_FAILED = Messages.challengeFailed;

export function isChallenge(headers: { get(name: string): string | null }): boolean {
  return headers.get(CHALLENGE_HEADER)?.trim().toLowerCase() === 'challenge';
}

export type Solver = (url: string) => Promise<boolean>;

let solver: Solver | null = null;
let pending: Promise<boolean> | null = null;

export function setChallengeSolver(next: Solver | null) {
  solver = next;
}

/** Resolves true when the check was passed (send the request again), false when it was not. */
export function obtainClearance(url: string): Promise<boolean> {
  if (!solver) return Promise.resolve(false);
  pending ??= solver(url).finally(() => {
    pending = null;
  });
  return pending;
}
