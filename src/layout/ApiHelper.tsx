import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ApiRequestError, request } from '../api/client';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The API helper (shell.md: Ctrl+Shift+A): sends one call of the API as the signed-in user, with
 * the app's own client (token, refresh, idempotency key), and shows the status and the answer. For
 * people building on the API (docs/api.md) and for support; it can do nothing the user could not
 * do with a token of their own.
 */
export default function ApiHelper({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const [method, setMethod] = useState<Method>('GET');
  const [path, setPath] = useState('/api/me');
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ status: number; text: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!path.startsWith('/api/')) return setProblem(t`The path must start with /api/.`);
    let payload: unknown;
    if (body.trim() && method !== 'GET') {
      try {
        payload = JSON.parse(body);
      } catch {
        return setProblem(t`The body is not valid JSON.`);
      }
    }
    setBusy(true);
    try {
      const data = await request(method, path, payload);
      setAnswer({ status: 200, text: JSON.stringify(data, null, 2) ?? '' });
    } catch (error) {
      if (error instanceof ApiRequestError) setAnswer({ status: error.status, text: JSON.stringify(error.body, null, 2) ?? '' });
      else setAnswer({ status: 0, text: String(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="shell-api-helper" role="dialog" aria-labelledby="api-helper-title" data-testid="api-helper" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <div className="page-header">
        <h2 id="api-helper-title">
          <Trans>API helper</Trans>
        </h2>
        <button type="button" className="ui-button ui-button--ghost ui-button--sm" onClick={onClose}>
          <Trans>Close</Trans>
        </button>
      </div>
      <form onSubmit={(e) => void send(e)} className="grid-gap">
        <div className="shell-api-helper-row">
          <div className="field">
            <label htmlFor="api-helper-method">
              <Trans>Method</Trans>
            </label>
            <select id="api-helper-method" value={method} onChange={(e) => setMethod(e.target.value as Method)}>
              {METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </div>
          <div className="field" style={{ flex: 4 }}>
            <label htmlFor="api-helper-path">
              <Trans>Path</Trans>
            </label>
            <input id="api-helper-path" value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} autoFocus />
          </div>
        </div>
        {method !== 'GET' && (
          <div className="field">
            <label htmlFor="api-helper-body">
              <Trans>Body (JSON)</Trans>
            </label>
            <textarea id="api-helper-body" rows={5} value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} />
          </div>
        )}
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" className="ui-button ui-button--primary ui-button--md" disabled={busy} aria-busy={busy}>
          <Trans>Send</Trans>
        </button>
      </form>
      {answer && (
        <div aria-live="polite">
          <p>
            <Trans>Status {answer.status}</Trans>
          </p>
          <pre data-testid="api-helper-answer">{answer.text}</pre>
        </div>
      )}
    </section>
  );
}
