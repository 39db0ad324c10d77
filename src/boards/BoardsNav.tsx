import { Suspense } from 'react';
import { lazyRetry } from '../ui/lazy-retry';

/**
 * The sidebar slot for a workspace's boards. Tiny on purpose: the list and the sync engine behind
 * it load lazily, so the app shell's bundle does not carry them.
 */
const BoardsNavList = lazyRetry(() => import('./BoardsNavList'));

export function BoardsNav({ teamId }: { teamId: number }) {
  return (
    <Suspense fallback={null}>
      <BoardsNavList teamId={teamId} />
    </Suspense>
  );
}
