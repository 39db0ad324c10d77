import { useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { DayPicker, type DateRange as DayRange } from 'react-day-picker';
import 'react-day-picker/style.css';
import type { DateRange } from '../../../schema/attributes';
import { dayOf, isoOf, localeDateFormat, parseDateText } from '../model/date-text';
import type { CommitHow, EditorProps } from './values';
import { ErrorLine } from './ErrorLine';

/**
 * Date and date-range editors (issue #30 part 6, review M3; decision 0354): a text field that takes
 * the date as the cells show it (2026-12-04) or in the user's locale's format (12/04/2026), with a
 * calendar (react-day-picker) open under it from the first click. A day picked in the calendar
 * saves a single date at once; in a range the two fields are one Tab apart and Enter saves both.
 * Typed text that is not a date stays in the field with the spec's message.
 */

function useCalendarText() {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const { pattern } = localeDateFormat(locale);
  const formatters = useMemo(() => {
    const caption = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' });
    const weekday = new Intl.DateTimeFormat(locale, { weekday: 'narrow' });
    const full = new Intl.DateTimeFormat(locale, { dateStyle: 'full' });
    return {
      formatters: { formatCaption: (d: Date) => caption.format(d), formatWeekdayName: (d: Date) => weekday.format(d) },
      labels: {
        labelNext: () => t`Next month`,
        labelPrevious: () => t`Previous month`,
        labelDayButton: (d: Date) => full.format(d),
        labelGrid: (d: Date) => caption.format(d),
      },
    };
  }, [locale, t]);
  return { locale, pattern, ...formatters };
}

/** What a field's text saves as: the ISO date when it reads as one, else the text (refused with its message). */
const toValue = (text: string, locale: string) => (text.trim() === '' ? null : (parseDateText(text, locale) ?? text));

export function DateEditor(props: EditorProps) {
  const { t } = useLingui();
  const { locale, pattern, formatters, labels } = useCalendarText();
  const initial = typeof props.value === 'string' ? props.value.slice(0, 10) : '';
  const [text, setText] = useState(props.initialText ?? initial);
  const [error, setError] = useState<string | null>(null);
  const parsed = parseDateText(text, locale);
  const [month, setMonth] = useState<Date>(() => dayOf(parsed ?? initial) ?? new Date());
  const busy = useRef(false);
  const cancelled = useRef(false);
  const commit = async (value: unknown, how?: CommitHow) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await props.onCommit(value, how);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      busy.current = false;
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Escape') {
      cancelled.current = true;
      props.onCancel();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void commit(toValue(text, locale), 'enter');
    }
  };
  // Focus leaving the editor (not into its calendar) saves what was typed, as other cells do.
  const onBlur = (event: FocusEvent) => {
    if (cancelled.current || event.currentTarget.contains(event.relatedTarget as Node | null)) return;
    if (text === initial) props.onCancel();
    else void commit(toValue(text, locale));
  };
  return (
    <span className="value-editor value-date" onKeyDown={onKeyDown} onBlur={onBlur} data-testid="date-editor">
      <input
        className="value-input"
        autoFocus
        aria-label={t`Edit ${props.attribute.name}`}
        aria-invalid={error ? true : undefined}
        placeholder={pattern}
        title={t`Type the date as YYYY-MM-DD or ${pattern}`}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
          const day = dayOf(parseDateText(e.target.value, locale));
          if (day) setMonth(day);
        }}
      />
      <ErrorLine error={error} />
      <span className="date-popover" data-testid="date-calendar">
        <DayPicker
          mode="single"
          selected={dayOf(parsed)}
          month={month}
          onMonthChange={setMonth}
          onSelect={(day) => day && void commit(isoOf(day))}
          formatters={formatters}
          labels={labels}
        />
      </span>
    </span>
  );
}

export function DateRangeEditor(props: EditorProps) {
  const { t } = useLingui();
  const { locale, pattern, formatters, labels } = useCalendarText();
  const range = (props.value as DateRange | null) ?? { start: '', end: '' };
  const [start, setStart] = useState(props.initialText ?? range.start);
  const [end, setEnd] = useState(range.end);
  const [error, setError] = useState<string | null>(null);
  const from = dayOf(parseDateText(start, locale));
  const to = dayOf(parseDateText(end, locale));
  const [month, setMonth] = useState<Date>(() => from ?? new Date());
  const endField = useRef<HTMLInputElement>(null);
  const cancelled = useRef(false);
  const value = () => (start.trim() || end.trim() ? { start: toValue(start, locale) ?? '', end: toValue(end, locale) ?? '' } : null);
  const commit = async (how?: CommitHow) => {
    try {
      await props.onCommit(value(), how);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Escape') {
      cancelled.current = true;
      props.onCancel();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void commit('enter');
    }
  };
  const changed = start !== range.start || end !== range.end;
  return (
    <span
      className="value-editor value-date value-range"
      onKeyDown={onKeyDown}
      onBlur={(e) => !cancelled.current && !e.currentTarget.contains(e.relatedTarget as Node | null) && (changed ? void commit() : props.onCancel())}
      data-testid="date-editor"
    >
      <span className="date-fields">
        <input className="value-input" autoFocus aria-label={t`Start date`} placeholder={pattern} value={start} onChange={(e) => (setStart(e.target.value), setError(null))} />
        <input ref={endField} className="value-input" aria-label={t`End date`} placeholder={pattern} value={end} onChange={(e) => (setEnd(e.target.value), setError(null))} />
        <button type="button" onClick={() => void commit()}>
          {t`Save`}
        </button>
      </span>
      <ErrorLine error={error} />
      <span className="date-popover" data-testid="date-calendar">
        <DayPicker
          mode="range"
          selected={{ from, to } as DayRange}
          month={month}
          onMonthChange={setMonth}
          onSelect={(next) => {
            setError(null);
            setStart(next?.from ? isoOf(next.from) : '');
            setEnd(next?.to ? isoOf(next.to) : '');
            // The start picked: the end is next (typed or picked).
            if (next?.from && !next.to) endField.current?.focus();
          }}
          formatters={formatters}
          labels={labels}
        />
      </span>
    </span>
  );
}
