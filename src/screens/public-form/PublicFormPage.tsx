import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useParams } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ApiRequestError, OFFLINE_STATUS, request } from '../../api/client';
import type { PublicForm } from '../../../schema/public-form';
import { FormQuestion } from './FormQuestion';
import { formMessage } from './form-messages';
import './public-form.css';

/**
 * /form/{formId} (issue #13, decision 0130): a public form, for anyone, signed in or not. It reads
 * the form from GET /api/forms/{id} and sends the answers to POST /api/forms/{id}; nothing of the
 * board, the sync worker or the replica is loaded (this chunk imports only the shell's API client
 * and its own question inputs). A disabled, unknown or unavailable form says so plainly.
 *
 * The bot check: when the server names a sitekey, a provider widget placed on the page (its
 * script is the operator's to add) leaves its token in a hidden `*-response` field of the form;
 * that token is sent as `bot_token`.
 */

type Load = { state: 'loading' } | { state: 'open'; form: PublicForm } | { state: 'closed'; reason: 'disabled' | 'unknown' | 'unavailable' | 'offline' };
type Answers = Record<string, unknown>;

export default function PublicFormPage() {
  const { formId } = useParams({ strict: false }) as { formId: string };
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    request<{ data: PublicForm }>('GET', `/api/forms/${encodeURIComponent(formId)}`, undefined, { auth: false }).then(
      (res) => live && setLoad({ state: 'open', form: res.data }),
      (error: unknown) => live && setLoad({ state: 'closed', reason: closedReason(error) }),
    );
    return () => {
      live = false;
    };
  }, [formId]);

  return (
    <main className="public-form" data-testid="public-form">
      {load.state === 'loading' && (
        <p className="public-form__note" aria-busy="true">
          <Trans>Loading the form…</Trans>
        </p>
      )}
      {load.state === 'closed' && <ClosedForm reason={load.reason} />}
      {load.state === 'open' && <OpenForm form={load.form} onClosed={(reason) => setLoad({ state: 'closed', reason })} />}
    </main>
  );
}

function closedReason(error: unknown): 'disabled' | 'unknown' | 'unavailable' | 'offline' {
  if (!(error instanceof ApiRequestError)) return 'unknown';
  if (error.status === OFFLINE_STATUS) return 'offline';
  if (error.type === 'form_disabled') return 'disabled';
  if (error.type === 'form_unavailable') return 'unavailable';
  return 'unknown';
}

function ClosedForm({ reason }: { reason: 'disabled' | 'unknown' | 'unavailable' | 'offline' }) {
  return (
    <section className="public-form__card" data-testid="public-form-closed" data-reason={reason}>
      <h1>
        {reason === 'disabled' && <Trans>This form is not accepting answers</Trans>}
        {reason === 'unknown' && <Trans>This form does not exist</Trans>}
        {reason === 'unavailable' && <Trans>This form is not available</Trans>}
        {reason === 'offline' && <Trans>The form could not be loaded</Trans>}
      </h1>
      <p>
        {reason === 'disabled' && <Trans>Its owner has turned it off. Ask them whether it will open again.</Trans>}
        {reason === 'unknown' && <Trans>Check the link: it may be mistyped, or the form was deleted.</Trans>}
        {reason === 'unavailable' && <Trans>The form cannot take answers at the moment. Ask its owner.</Trans>}
        {reason === 'offline' && <Trans>Check your connection and reload the page.</Trans>}
      </p>
    </section>
  );
}

function OpenForm({ form, onClosed }: { form: PublicForm; onClosed(reason: 'disabled' | 'unknown' | 'unavailable'): void }) {
  const { t } = useLingui();
  const [answers, setAnswers] = useState<Answers>({});
  const [files, setFiles] = useState<Record<string, File[]>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    document.title = form.title;
  }, [form.title]);

  const set = (attributeId: string, value: unknown) => {
    setAnswers((a) => ({ ...a, [attributeId]: value }));
    if (problems[attributeId]) setProblems(({ [attributeId]: _, ...rest }) => rest);
  };

  /** What the browser can tell before sending: the required questions. The server judges the rest. */
  const missing = (): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const field of form.fields) {
      if (!field.required) continue;
      const value = field.kind === 'attachments' ? files[field.attribute_id] : answers[field.attribute_id];
      const empty = value === undefined || value === null || value === false || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
      if (empty) out[field.attribute_id] = 'this field is required';
    }
    return out;
  };

  const showProblems = (found: Record<string, string>, message: string) => {
    setProblems(found);
    setError(message);
    requestAnimationFrame(() => {
      const first = form.fields.find((f) => found[f.attribute_id]);
      const target = first ? formRef.current?.querySelector<HTMLElement>(`[data-question="${CSS.escape(first.attribute_id)}"] input, [data-question="${CSS.escape(first.attribute_id)}"] textarea, [data-question="${CSS.escape(first.attribute_id)}"] select`) : null;
      (target ?? alertRef.current)?.focus();
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local = missing();
    if (Object.keys(local).length) return showProblems(local, 'The form has an error, fix it');
    setBusy(true);
    setError(null);
    const botToken = formRef.current?.querySelector<HTMLInputElement>('input[name$="-response"]')?.value || undefined;
    const chosen = Object.entries(files).filter(([, list]) => list.length > 0);
    let body: unknown = { answers, ...(botToken ? { bot_token: botToken } : {}) };
    if (chosen.length) {
      const data = new FormData();
      data.append('answers', JSON.stringify(answers));
      if (botToken) data.append('bot_token', botToken);
      for (const [attributeId, list] of chosen) for (const file of list) data.append(attributeId, file, file.name);
      body = data;
    }
    try {
      const res = await request<{ data: { confirmation: string } }>('POST', `/api/forms/${encodeURIComponent(form.id)}`, body, { auth: false });
      setSent(res.data.confirmation || '');
    } catch (failure) {
      if (!(failure instanceof ApiRequestError)) return showProblems({}, 'Something Went Wrong');
      if (failure.type === 'form_disabled' || failure.type === 'form_not_found' || failure.type === 'form_unavailable') {
        return onClosed(failure.type === 'form_disabled' ? 'disabled' : failure.type === 'form_unavailable' ? 'unavailable' : 'unknown');
      }
      const fields = (failure.body?.data as { fields?: Record<string, string> } | undefined)?.fields;
      showProblems(fields ?? {}, failure.body?.message ?? 'Something Went Wrong');
    } finally {
      setBusy(false);
    }
  };

  if (sent !== null) {
    return (
      <section className="public-form__card" data-testid="public-form-sent" role="status">
        <h1>{form.title}</h1>
        <p className="public-form__confirmation">{sent || t`Thank you! Your answer was sent.`}</p>
        <button
          type="button"
          className="ui-button ui-button--secondary ui-button--md"
          onClick={() => {
            setAnswers({});
            setFiles({});
            setSent(null);
          }}
        >
          <Trans>Send another answer</Trans>
        </button>
      </section>
    );
  }

  return (
    <form ref={formRef} className="public-form__card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="public-form-title">
      <h1 id="public-form-title">{form.title}</h1>
      {form.description && <p className="public-form__description">{form.description}</p>}
      <p className="public-form__note">
        <Trans>Questions marked * must be answered.</Trans>
      </p>
      {error && (
        <p ref={alertRef} tabIndex={-1} className="public-form__error" role="alert" data-testid="public-form-error">
          {formMessage(error)}
        </p>
      )}
      {form.fields.map((field) => (
        <FormQuestion
          key={field.attribute_id}
          field={field}
          value={answers[field.attribute_id]}
          files={files[field.attribute_id] ?? []}
          problem={problems[field.attribute_id] ? formMessage(problems[field.attribute_id]!) : null}
          onChange={(value) => set(field.attribute_id, value)}
          onFiles={(list) => {
            setFiles((f) => ({ ...f, [field.attribute_id]: list }));
            if (problems[field.attribute_id]) setProblems(({ [field.attribute_id]: _, ...rest }) => rest);
          }}
        />
      ))}
      {form.bot_check_sitekey && <div className="public-form__bot-check" data-sitekey={form.bot_check_sitekey} data-testid="public-form-bot-check" />}
      <button type="submit" className="ui-button ui-button--primary ui-button--md" disabled={busy} aria-busy={busy} data-testid="public-form-submit">
        <Trans>Send</Trans>
      </button>
    </form>
  );
}
