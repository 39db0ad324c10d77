import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../ui/Button';
import { rememberBoardPassword, unlockBoard } from '../public-board';

/**
 * Asked before a password-protected public board opens (workspace.md §1). The server checks the
 * password first, so a wrong one is said at once; the right one is kept for the session and sent
 * with every request of the board (X-Authorization-Password). The board then opens read-only.
 */
export function BoardPasswordForm({ boardId, onUnlocked }: { boardId: string; onUnlocked: () => void }) {
  const { t } = useLingui();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(t`Enter the board's password.`);
    setBusy(true);
    const outcome = await unlockBoard(boardId, password);
    setBusy(false);
    if (outcome === 'ok') {
      rememberBoardPassword(boardId, password);
      onUnlocked();
    } else if (outcome === 'wrong') setError(t`The password is not correct.`);
    else if (outcome === 'limited') setError(t`Too many wrong passwords. Please try again later.`);
    else setError(t`The board could not be reached. Check your connection and try again.`);
  };

  return (
    <div className="board-problem">
      <form className="board-form board-password" noValidate onSubmit={submit} data-testid="board-password-form">
        <h1>
          <Trans>This board is protected by a password.</Trans>
        </h1>
        <label>
          <Trans>Password</Trans>
          <input
            type="password"
            name="board-password"
            autoComplete="off"
            autoFocus
            value={password}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'board-password-error' : undefined}
            onChange={(e) => (setPassword(e.target.value), setError(null))}
          />
        </label>
        {error && (
          <p className="field-error" id="board-password-error" role="alert">
            {error}
          </p>
        )}
        <Button type="submit" variant="primary" disabled={busy}>
          <Trans>Open board</Trans>
        </Button>
      </form>
    </div>
  );
}
