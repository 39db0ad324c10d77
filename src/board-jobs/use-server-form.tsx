import { useState } from 'react';
import { ApiRequestError } from '../api/client';
import { showApiError } from '../api/handle-error';

/**
 * The busy flag and field error of a small form that asks the server to do one thing (start a
 * board job, save a template, make a board): `submit` runs the request with the button off; an
 * answer with one of `fieldStatuses` (422 by default) becomes the form's error line, any other
 * failure the usual error toast. With `busyAfterSuccess` the button stays off after a success (the
 * form navigates away).
 */
export function useServerForm({ fieldStatuses = [422], busyAfterSuccess = false }: { fieldStatuses?: number[]; busyAfterSuccess?: boolean } = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (request: () => Promise<void>): Promise<void> => {
    setBusy(true);
    try {
      await request();
      if (!busyAfterSuccess) setBusy(false);
    } catch (err) {
      if (err instanceof ApiRequestError && fieldStatuses.includes(err.status)) setError(err.message);
      else showApiError(err);
      setBusy(false);
    }
  };
  return { busy, error, setError, submit };
}

/** The form's error line (announced when it appears). */
export function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="field-error" role="alert">
      {error}
    </p>
  );
}
