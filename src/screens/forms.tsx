import { useCallback, useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { showApiError } from '../api/handle-error';
import { runOnline } from '../connectivity/OnlineOnly';

/** A labelled input; the label is always visible (no placeholder-only fields). */
export function Field({ label, hint, ...input }: { label: ReactNode; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
    </div>
  );
}

/**
 * Runs an API action with a busy flag. Offline it does nothing but show the offline toast; errors
 * go to the shell's error handling (toast, reauth, verify-email) unless `onError` takes them.
 */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<unknown>, opts: { onError?: (error: unknown) => boolean | void } = {}) {
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (...args: A) => {
      if (busy) return;
      await runOnline(async () => {
        setBusy(true);
        try {
          await action(...args);
        } catch (error) {
          if (!opts.onError?.(error)) showApiError(error);
        } finally {
          setBusy(false);
        }
      });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [action, busy],
  );
  return [run, busy] as const;
}

export function SubmitButton({ busy, children }: { busy?: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="ui-button ui-button--primary ui-button--md" disabled={busy} aria-busy={busy}>
      {children}
    </button>
  );
}
