import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { useAppVars } from '../use-app-vars';

/**
 * Whether the workspace's plan has Pro-only views (GET /api/{teamId}/features → flags.pro_views,
 * the effective limits; decision 0260). Asked per workspace at most every 30 s (a trial started
 * on the billing page shows on the next board opened); until it answers
 * (or offline) the views are allowed — the server decides on save anyway. With billing off there
 * is no Pro badge and nothing is gated.
 */
const asked = new Map<number, { at: number; answer: Promise<boolean> }>();
const FRESH_MS = 30_000;

function proViewsOf(teamId: number): Promise<boolean> {
  const known = asked.get(teamId);
  let answer = known && Date.now() - known.at < FRESH_MS ? known.answer : undefined;
  if (!answer) {
    answer = api
      .get<{ data: { flags: Record<string, boolean> } }>(`/api/${teamId}/features`)
      .then((res) => res.data.flags.pro_views !== false)
      .catch(() => {
        asked.delete(teamId);
        return true;
      });
    asked.set(teamId, { at: Date.now(), answer });
  }
  return answer;
}

export function useProViews(teamId: number): { allowed: boolean; billing: boolean } {
  const billing = useAppVars().billing !== false;
  const [allowed, setAllowed] = useState(true);
  useEffect(() => {
    let live = true;
    if (!billing) {
      setAllowed(true);
      return;
    }
    void proViewsOf(teamId).then((ok) => live && setAllowed(ok));
    return () => {
      live = false;
    };
  }, [teamId, billing]);
  return { allowed, billing };
}
