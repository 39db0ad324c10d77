import { useCallback, useId, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { showApiError } from '../api/handle-error';
import { runOnline } from '../connectivity/OnlineOnly';
import { formProblemsOf, type FormProblems } from './field-errors';

/** A labelled input; the label is always visible (no placeholder-only fields). `error` shows under it. */
export function Field({ label, hint, error, ...input }: { label: ReactNode; hint?: ReactNode; error?: string | null } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={described} aria-invalid={error ? true : undefined} {...input} />
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error" data-testid={`field-error-${input.name ?? ''}`}>
          {error}
        </small>
      )}
    </div>
  );
}

/**
 * Problems of a 422 answer, each under its field (issue #17 part 6). `fieldError(name)` both reads a
 * field's problem and says the form shows that field; `take(error)` claims a 422 (true) and sorts
 * its problems; what belongs to no shown field is `message`, for the line above the button.
 */
export function useFieldErrors() {
  const shown = useRef(new Set<string>());
  const [problems, setProblems] = useState<FormProblems>({ fields: {}, message: null });
  const fieldError = (name: string): string | undefined => {
    shown.current.add(name);
    return problems.fields[name];
  };
  const take = useCallback((error: unknown): boolean => {
    const found = formProblemsOf(error, shown.current);
    if (!found) return false;
    setProblems(found);
    return true;
  }, []);
  const clear = useCallback(() => setProblems({ fields: {}, message: null }), []);
  return { fieldError, take, clear, message: problems.message, setMessage: (message: string | null) => setProblems({ fields: {}, message }) };
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
 * A form's submit: runs `action` through useAction, shows a 422 answer next to the form (each
 * problem under its field when the form passes `error={fieldError(name)}`, the rest as `error`;
 * cleared on each submit) and leaves every other failure to the shell. `onError` may claim an error first.
 */
export function useFormAction(action: () => Promise<unknown>, opts: { onError?: (error: unknown) => boolean } = {}) {
  const problems = useFieldErrors();
  const [run, busy] = useAction(
    async () => {
      problems.clear();
      await action();
    },
    {
      onError: (err) => {
        if (opts.onError?.(err)) return true;
        return problems.take(err);
      },
    },
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  return { onSubmit, busy, error: problems.message, setError: problems.setMessage, fieldError: problems.fieldError };
}

export function SubmitButton({ busy, children }: { busy?: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="ui-button ui-button--primary ui-button--md" disabled={busy} aria-busy={busy}>
      {children}
    </button>
  );
}
