import { useCallback, useId, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { showApiError } from '../api/handle-error';
import { runOnline } from '../connectivity/OnlineOnly';
import { inlineErrorOf } from './auth/form-errors';

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

/**
 * A form's submit: runs `action` through useAction, shows a 422 answer next to the form (cleared on
 * each submit) and leaves every other failure to the shell. `onError` may claim an error first.
 */
export function useFormAction(action: () => Promise<unknown>, opts: { onError?: (error: unknown) => boolean } = {}) {
  const [error, setError] = useState<string | null>(null);
  const [run, busy] = useAction(
    async () => {
      setError(null);
      await action();
    },
    {
      onError: (err) => {
        if (opts.onError?.(err)) return true;
        const inline = inlineErrorOf(err);
        setError(inline);
        return Boolean(inline);
      },
    },
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  return { onSubmit, busy, error, setError };
}

export function SubmitButton({ busy, children }: { busy?: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="ui-button ui-button--primary ui-button--md" disabled={busy} aria-busy={busy}>
      {children}
    </button>
  );
}
