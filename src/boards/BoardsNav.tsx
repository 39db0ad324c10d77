import { lazy, Suspense } from 'react';

/**
 * The sidebar slot for a workspace's boards. Tiny on purpose: the list and the sync engine behind
 * it load lazily, so the app shell's bundle does not carry them.
 */
const BoardsNavList = lazy(() => import('./BoardsNavList'));

export function BoardsNav({ teamId }: { teamId: number }) {
  return (
    <Suspense fallback={null}>
      <BoardsNavList teamId={teamId} />
    </Suspense>
  );
}
