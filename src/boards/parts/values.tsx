import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { checkValue, customIdText, hasSafeScheme, settingsOf, type Attachment, type DateRange, type LinkValue } from '../../../schema/attributes';
import { AttachmentsEditor, attachmentHref } from './AttachmentsEditor';
import { ReferenceEditor, ReferenceNames } from './ReferenceEditor';
import { PeopleDisplay, PeoplePicker } from './PeoplePicker';
import { DateEditor, DateRangeEditor } from './DateEditor';
import { TimerControl } from '../time/TimerControl';
import { ButtonControl } from '../automations/ButtonControl';
import type { Attribute, Item } from '../store/live';
import { ErrorLine } from './ErrorLine';

/**
 * How each attribute kind shows a value, and its inline editor. Editors commit with Enter (or on
 * blur) and cancel with Escape; invalid input stays in the editor with the spec's message, so what
 * the user typed is never dropped silently.
 */

/**
 * Memoised: a row re-renders when the table's column window moves (the item panel opening narrows
 * it), and the cells whose attribute, value and item did not change need not render again.
 */
export const ValueDisplay = memo(function ValueDisplay({ attribute, value, item, ordinal }: { attribute: Attribute; value: unknown; item: Item; ordinal?: number }) {
  const { t } = useLingui();
  switch (attribute.kind) {
    case 'primary':
      return <span className="value-text">{item.name}</span>;
    case 'custom-id':
      return <span className="value-text">{ordinal ? customIdText(settingsOf('custom-id', attribute.settings).prefix, ordinal) : ''}</span>;
    case 'button':
      // A click runs the button's automations (and opens its link, when it has a safe one).
      return <ButtonControl attribute={attribute} item={item} />;
    case 'time-tracking':
      return <TimerControl attribute={attribute} item={item} />;
  }
  if (value === null || value === undefined || value === '') return null;
  switch (attribute.kind) {
    case 'checkbox':
      return <span className="value-check" aria-label={value ? t`checked` : t`unchecked`}>{value ? '✓' : ''}</span>;
    case 'status':
    case 'label': {
      const options = settingsOf(attribute.kind === 'status' ? 'status' : 'label', attribute.settings).options;
      const ids = Array.isArray(value) ? value : [value];
      return (
        <span className="value-labels">
          {ids.map((id) => {
            const o = options.find((x) => x.id === id);
            return o ? (
              <span key={String(id)} className="label-chip" style={{ background: o.color, color: o.textColor }}>
                {o.name}
              </span>
            ) : null;
          })}
        </span>
      );
    }
    case 'members':
      return <PeopleDisplay ids={value as number[]} />;
    case 'link': {
      const link = value as LinkValue;
      if (!hasSafeScheme(link.url)) return <span className="value-text">{link.text ?? link.url}</span>;
      return (
        <a href={link.url} target="_blank" rel="noreferrer noopener" onClick={(e) => e.stopPropagation()}>
          {link.text ?? link.url}
        </a>
      );
    }
    case 'email':
      return <a href={`mailto:${String(value)}`} onClick={(e) => e.stopPropagation()}>{String(value)}</a>;
    case 'date-range': {
      const r = value as DateRange;
      return <span className="value-text">{`${r.start} – ${r.end}`}</span>;
    }
    case 'reference':
      return <ReferenceNames ids={value as string[]} />;
    case 'attachments':
      return (
        <span className="value-text attachment-names">
          {(value as Attachment[]).map((a) =>
            hasSafeScheme(a.url) ? (
              <a key={a.id} href={attachmentHref(a)} target="_blank" rel="noreferrer noopener" onClick={(e) => e.stopPropagation()}>
                {a.name}
              </a>
            ) : (
              <span key={a.id}>{a.name}</span>
            ),
          )}
        </span>
      );
    case 'long-text':
      return <span className="value-text value-clip">{String(value)}</span>;
    default:
      return <span className="value-text">{String(value)}</span>;
  }
});

/**
 * How an editor committed: 'enter' (the Table moves down a row, as a spreadsheet does), 'stay'
 * (a pick in a multi-value picker: saved, the picker stays open), or by blur/button (undefined).
 */
export type CommitHow = 'enter' | 'stay' | undefined;

export interface EditorProps {
  attribute: Attribute;
  value: unknown;
  item: Item;
  /** Saves; throws with the message to show when the value is invalid. */
  onCommit: (value: unknown, how?: CommitHow) => Promise<void>;
  onCancel: () => void;
  /** Typing on a selected cell starts its editor with what was typed, replacing the value. */
  initialText?: string;
}

/** Kinds whose editor is a text field: typing on their cell starts editing with that character. */
export const TYPE_TO_EDIT_KINDS = new Set(['primary', 'text', 'long-text', 'number', 'email', 'link', 'date-range']);

/** Whether typing on a cell of this attribute starts its editor (a date with a time has no text field). */
export const startsByTyping = (attribute: Attribute) =>
  TYPE_TO_EDIT_KINDS.has(attribute.kind) || (attribute.kind === 'date' && !settingsOf('date', attribute.settings).withTime);

/** Kinds with no editor (derived or action-only). */
export const READ_ONLY_KINDS = new Set(['custom-id', 'button', 'time-tracking']);

export function ValueEditor(props: EditorProps) {
  const { attribute } = props;
  switch (attribute.kind) {
    case 'status':
    case 'label':
      return <OptionEditor {...props} />;
    case 'members':
      return <PeoplePicker {...props} />;
    case 'date':
      // A date with a time keeps the browser's date-time field (decision 0354).
      return settingsOf('date', attribute.settings).withTime ? <TextEditor {...props} /> : <DateEditor {...props} />;
    case 'date-range':
      return <DateRangeEditor {...props} />;
    case 'checkbox':
      return <CheckboxEditor {...props} />;
    case 'reference':
      return <ReferenceEditor {...props} />;
    case 'attachments':
      return <AttachmentsEditor {...props} />;
    default:
      return <TextEditor {...props} />;
  }
}

/** Shared commit/cancel handling and the error line. */
function useCommit({ onCommit, onCancel }: EditorProps) {
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);
  // Escape closes without saving: the blur that follows (focus goes back to the grid) saves nothing.
  const cancelled = useRef(false);
  const commit = async (value: unknown, how?: CommitHow) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await onCommit(value, how);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      busy.current = false;
    }
  };
  const onKeyDown = (event: KeyboardEvent, value: () => unknown) => {
    event.stopPropagation();
    if (event.key === 'Escape') {
      cancelled.current = true;
      onCancel();
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void commit(value(), 'enter');
    }
  };
  return { error, commit, onKeyDown, setError, cancelled };
}

function TextEditor(props: EditorProps) {
  const { t } = useLingui();
  const { attribute, value, item } = props;
  const initial = attribute.kind === 'primary' ? item.name : attribute.kind === 'link' ? ((value as LinkValue | null)?.url ?? '') : value === null || value === undefined ? '' : String(value);
  const [text, setText] = useState(props.initialText ?? initial);
  const { error, commit, onKeyDown, setError, cancelled } = useCommit(props);
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  // Started by typing: the caret goes after the typed character (not before it, nor selecting it).
  useEffect(() => {
    const el = field.current;
    if (!el || props.initialText === undefined) return;
    try {
      el.setSelectionRange(el.value.length, el.value.length);
    } catch {
      // email inputs have no selection API; their caret is at the end already.
    }
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const type = attribute.kind === 'date' ? (settingsOf('date', attribute.settings).withTime ? 'datetime-local' : 'date') : attribute.kind === 'number' ? 'text' : attribute.kind === 'email' ? 'email' : attribute.kind === 'link' ? 'url' : 'text';
  const toValue = () => (attribute.kind === 'link' && text.trim() ? { url: text.trim() } : text);
  const live = (next: string) => {
    setText(next);
    // Checks as the user types (shell.md §5: validation runs on change); saving happens on Enter/blur.
    const checked = checkValue(attribute, attribute.kind === 'link' && next.trim() ? { url: next } : next);
    setError(checked.ok ? null : checked.message);
  };
  const common = {
    ref: field,
    autoFocus: true,
    'aria-label': t`Edit ${attribute.name}`,
    'aria-invalid': error ? true : undefined,
    className: 'value-input',
    value: text,
    onBlur: () => (cancelled.current ? undefined : text === initial ? props.onCancel() : void commit(toValue())),
  };
  return (
    <span className="value-editor">
      {attribute.kind === 'long-text' ? (
        <textarea {...common} rows={4} onChange={(e) => live(e.target.value)} onKeyDown={(e) => onKeyDown(e, toValue)} />
      ) : (
        <input {...common} type={type} inputMode={attribute.kind === 'number' ? 'decimal' : undefined} onChange={(e) => live(e.target.value)} onKeyDown={(e) => onKeyDown(e, toValue)} />
      )}
      <ErrorLine error={error} />
    </span>
  );
}

function CheckboxEditor(props: EditorProps) {
  const { t } = useLingui();
  const { commit, error } = useCommit(props);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <span className="value-editor">
      <input ref={ref} type="checkbox" aria-label={t`Edit ${props.attribute.name}`} checked={props.value === true} onChange={(e) => void commit(e.target.checked).then(props.onCancel)} onKeyDown={(e) => e.key === 'Escape' && props.onCancel()} />
      <ErrorLine error={error} />
    </span>
  );
}

/**
 * One click opens the option picker now; the second click of a double-click (the old way to open
 * it) lands on the picker and must not choose whatever option lies under the pointer.
 */
const pickOnce = (event: { detail: number }) => event.detail < 2;

function OptionEditor(props: EditorProps) {
  const { t } = useLingui();
  const { attribute } = props;
  const isStatus = attribute.kind === 'status';
  const settings = settingsOf(isStatus ? 'status' : 'label', attribute.settings);
  const multiple = !isStatus && (settings as { multiple?: boolean }).multiple === true;
  const current = Array.isArray(props.value) ? (props.value as string[]) : props.value ? [String(props.value)] : [];
  const { commit, error } = useCommit(props);
  const choose = async (id: string | null) => {
    if (id === null) return commit(null).then(props.onCancel);
    if (!multiple) return commit(id).then(props.onCancel);
    const next = current.includes(id) ? current.filter((c) => c !== id) : [...current, id];
    return commit(next);
  };
  return (
    <span className="value-editor value-options" role="listbox" aria-label={t`Choose ${attribute.name}`} aria-multiselectable={multiple} onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), props.onCancel())}>
      {settings.options.map((o, i) => (
        <button key={o.id} type="button" role="option" aria-selected={current.includes(o.id)} autoFocus={i === 0} className="label-chip" style={{ background: o.color, color: o.textColor }} onClick={(e) => pickOnce(e) && void choose(o.id)}>
          {o.name}
        </button>
      ))}
      <button type="button" className="option-clear" onClick={() => void choose(null)}>
        {t`Clear`}
      </button>
      {multiple && (
        <button type="button" onClick={props.onCancel}>
          {t`Done`}
        </button>
      )}
      <ErrorLine error={error} />
    </span>
  );
}

