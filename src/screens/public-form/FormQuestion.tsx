import { useId, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { PublicField } from '../../../schema/public-form';

interface Props {
  field: PublicField;
  value: unknown;
  files: File[];
  problem: string | null;
  onChange(value: unknown): void;
  onFiles(files: File[]): void;
}

/**
 * One question of a public form: a native control per attribute kind (text, long text, number,
 * email, link, date, date range, status / single label as a select, multiple labels as checkboxes,
 * a checkbox, files), its label, help text and the problem the server (or the required check)
 * found, tied to the control with aria-describedby / aria-invalid.
 */
export function FormQuestion({ field, value, files, problem, onChange, onFiles }: Props) {
  const { t } = useLingui();
  const id = useId();
  const helpId = field.help ? `${id}-help` : undefined;
  const problemId = problem ? `${id}-problem` : undefined;
  const describedBy = [helpId, problemId].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-describedby': describedBy, 'aria-invalid': problem ? true : undefined, 'aria-required': field.required || undefined } as const;
  const text = typeof value === 'string' ? value : '';

  let control: ReactNode;
  switch (field.kind) {
    case 'long-text':
      control = <textarea {...common} rows={4} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
      break;
    case 'number':
      control = <input {...common} type="text" inputMode="decimal" value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
      break;
    case 'email':
      control = <input {...common} type="email" autoComplete="email" value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
      break;
    case 'link':
      control = <input {...common} type="url" inputMode="url" value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
      break;
    case 'date':
      control = <input {...common} type={field.with_time ? 'datetime-local' : 'date'} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
      break;
    case 'date-range': {
      const range = (value ?? {}) as { start?: string; end?: string };
      const type = field.with_time ? 'datetime-local' : 'date';
      const next = (patch: { start?: string; end?: string }) => {
        const merged = { start: range.start ?? '', end: range.end ?? '', ...patch };
        onChange(merged.start || merged.end ? merged : null);
      };
      control = (
        <span className="public-form__range">
          <input {...common} type={type} aria-label={t`Start`} value={range.start ?? ''} onChange={(e) => next({ start: e.currentTarget.value })} />
          <input type={type} aria-label={t`End`} aria-describedby={describedBy} value={range.end ?? ''} onChange={(e) => next({ end: e.currentTarget.value })} />
        </span>
      );
      break;
    }
    case 'checkbox':
      return (
        <div className={`public-form__question${problem ? ' has-problem' : ''}`} data-question={field.attribute_id}>
          <label className="public-form__check">
            <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />
            <span>
              {field.label}
              {field.required && <span aria-hidden="true"> *</span>}
            </span>
          </label>
          <Notes help={field.help} helpId={helpId} problem={problem} problemId={problemId} />
        </div>
      );
    case 'status':
    case 'label':
      if (field.kind === 'label' && field.multiple) {
        const chosen = Array.isArray(value) ? (value as string[]) : [];
        return (
          <fieldset className={`public-form__question${problem ? ' has-problem' : ''}`} data-question={field.attribute_id} aria-describedby={describedBy}>
            <legend>
              {field.label}
              {field.required && <span aria-hidden="true"> *</span>}
            </legend>
            {(field.options ?? []).map((o) => (
              <label key={o.id} className="public-form__check">
                <input type="checkbox" checked={chosen.includes(o.id)} onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, o.id] : chosen.filter((c) => c !== o.id))} />
                {o.name}
              </label>
            ))}
            <Notes help={field.help} helpId={helpId} problem={problem} problemId={problemId} />
          </fieldset>
        );
      }
      control = (
        <select {...common} value={text} onChange={(e) => onChange(e.currentTarget.value || null)}>
          <option value="">{t`Choose…`}</option>
          {(field.options ?? []).map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      );
      break;
    case 'attachments':
      control = (
        <>
          <input {...common} type="file" multiple onChange={(e) => onFiles(Array.from(e.currentTarget.files ?? []))} />
          {files.length > 0 && (
            <ul className="public-form__files">
              {files.map((f) => (
                <li key={`${f.name}:${f.size}`}>{f.name}</li>
              ))}
            </ul>
          )}
        </>
      );
      break;
    default:
      control = <input {...common} type="text" value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
  return (
    <div className={`public-form__question${problem ? ' has-problem' : ''}`} data-question={field.attribute_id}>
      <label htmlFor={id} className="public-form__label">
        {field.label}
        {field.required && <span aria-hidden="true"> *</span>}
        {field.required && (
          <span className="visually-hidden">
            {' '}
            <Trans>(required)</Trans>
          </span>
        )}
      </label>
      {control}
      <Notes help={field.help} helpId={helpId} problem={problem} problemId={problemId} />
    </div>
  );
}

function Notes({ help, helpId, problem, problemId }: { help: string; helpId?: string; problem: string | null; problemId?: string }) {
  return (
    <>
      {help && (
        <small id={helpId} className="public-form__help">
          {help}
        </small>
      )}
      {problem && (
        <small id={problemId} className="public-form__problem">
          {problem}
        </small>
      )}
    </>
  );
}
