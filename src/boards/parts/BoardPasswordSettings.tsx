import { useEffect, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Messages } from '../../../schema/messages';
import { api } from '../../api/client';
import { useOnline } from '../../connectivity/use-connectivity';
import { translateMessage } from '../../i18n/server-messages';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/toast-store';

/**
 * edit-board: the optional password of a public board (workspace.md §1), for the workspace owner
 * and admins. The server keeps only a hash, so the form never shows the current password.
 */
export function BoardPasswordSettings({ teamId, boardId, mayChange }: { teamId: number; boardId: string; mayChange: boolean }) {
  const { t } = useLingui();
  const online = useOnline();
  const [isSet, setIsSet] = useState<boolean | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const path = `/api/${teamId}/boards/${encodeURIComponent(boardId)}/password`;

  useEffect(() => {
    let live = true;
    api.get<{ data: { password_required: boolean } }>(path).then(
      (answer) => live && setIsSet(answer.data.password_required),
      () => live && setIsSet(null),
    );
    return () => {
      live = false;
    };
  }, [path]);

  const change = async (next: string | null) => {
    try {
      const answer = await api.put<{ data: { password_required: boolean } }>(path, { password: next });
      setIsSet(answer.data.password_required);
      setPassword('');
      toast.show(next === null ? t`Password removed.` : t`Password set.`, { kind: 'success' });
    } catch (err) {
      toast.show(translateMessage((err as Error).message), { kind: 'error' });
    }
  };
  const disabled = !mayChange || !online;
  const title = online ? undefined : translateMessage(Messages.offlineFeature);

  return (
    <form
      className="board-form"
      data-testid="board-password-settings"
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        if (!password) return setError(t`Enter a password.`);
        void change(password);
      }}
    >
      <p className="hint">
        {isSet ? <Trans>Visitors must enter the password to open this board.</Trans> : <Trans>Optional: visitors must enter this password to open the board.</Trans>}
      </p>
      <label>
        <Trans>Board password</Trans>
        <input type="password" autoComplete="new-password" disabled={disabled} value={password} aria-invalid={error ? true : undefined} onChange={(e) => (setPassword(e.target.value), setError(null))} />
      </label>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="board-form-actions">
        <Button type="submit" disabled={disabled} title={title}>
          {isSet ? <Trans>Change password</Trans> : <Trans>Set password</Trans>}
        </Button>
        {isSet && (
          <Button variant="danger" disabled={disabled} title={title} onClick={() => void change(null)}>
            <Trans>Remove password</Trans>
          </Button>
        )}
      </div>
    </form>
  );
}
