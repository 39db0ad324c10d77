import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { useSession } from '../../api/session';
import { Spinner } from '../../ui/Spinner';
import { BoardBackendContext, type BoardBackend } from '../store/backend';
import { useBackendFor } from '../store/use-backend';

/** Gives board screens outside a board page (create, edit, permissions) the signed-in user's backend. */
export function WithBackend({ children }: { children: (backend: BoardBackend) => ReactNode }) {
  const { t } = useLingui();
  const session = useSession();
  const userId = session.status === 'signedIn' ? session.user.id : null;
  const { backend, error } = useBackendFor(userId, session.status === 'signedIn');
  if (error) return <p role="alert">{String((error as Error).message)}</p>;
  if (!backend) return <Spinner label={t`Loading`} />;
  return <BoardBackendContext.Provider value={backend}>{children(backend)}</BoardBackendContext.Provider>;
}
