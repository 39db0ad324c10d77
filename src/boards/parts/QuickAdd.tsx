import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { toast } from '../../ui/toast-store';

/**
 * The one quick-add field of every view (issue #30 part 4): the table's row under the items, a
 * kanban column's foot, the list's foot. Enter takes the name and empties the field in the same
 * keystroke, before anything is stored, so the next name typed at full speed starts in an empty
 * field; the adds run one after another in the order typed (each through the engine, which stores
 * it locally and shows it at once). The field is uncontrolled on purpose: what the user typed is
 * the DOM's, and no state update arriving late can overwrite it.
 *
 * An add that fails is never dropped quietly: a toast names it, and the name comes back into the
 * field when the field is empty.
 */
export interface QuickAddProps {
  /** Stores one item named `name`; resolves once the engine holds it. */
  onAdd(name: string): Promise<unknown>;
  /** Escape (or leaving an empty field) when the field was opened from a button. */
  onClose?(): void;
  autoFocus?: boolean;
  placeholder?: string;
  className?: string;
  testId?: string;
  /** Moves focus to the field when this event is dispatched on window (the table's `c` key). */
  focusEvent?: string;
  prefix?: ReactNode;
}

export function QuickAdd({ onAdd, onClose, autoFocus, placeholder, className, testId = 'new-item-input', focusEvent, prefix }: QuickAddProps) {
  const { t } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const [hasText, setHasText] = useState(false);
  // The adds run in sequence: positions and order follow the typing order.
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const latest = useRef(onAdd);
  latest.current = onAdd;

  useEffect(() => {
    if (!focusEvent) return;
    const take = (event: Event) => {
      event.preventDefault();
      input.current?.focus();
      input.current?.scrollIntoView({ block: 'nearest' });
    };
    window.addEventListener(focusEvent, take);
    return () => window.removeEventListener(focusEvent, take);
  }, [focusEvent]);

  const submit = () => {
    const field = input.current;
    if (!field) return;
    const name = field.value.trim();
    if (!name) return;
    field.value = '';
    setHasText(false);
    chain.current = chain.current.then(() =>
      latest.current(name).catch((error: unknown) => {
        const reason = error instanceof Error && error.message ? error.message : t`Something went wrong.`;
        toast.show(t`“${name}” was not added: ${reason}`, { kind: 'error' });
        if (input.current && !input.current.value) {
          input.current.value = name;
          setHasText(true);
        }
      }),
    );
  };

  return (
    <div className={`quick-add ${className ?? ''}`} data-testid={testId === 'new-item-input' ? 'new-item-row' : `${testId}-row`}>
      {prefix ?? <span aria-hidden="true">+</span>}
      <input
        ref={input}
        defaultValue=""
        autoFocus={autoFocus}
        placeholder={placeholder ?? t`Add item`}
        aria-label={t`New item name`}
        maxLength={10_000}
        data-testid={testId}
        onInput={(e) => setHasText(Boolean(e.currentTarget.value.trim()))}
        onBlur={(e) => {
          if (onClose && !e.currentTarget.value.trim()) onClose();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.currentTarget.value = '';
            setHasText(false);
            e.currentTarget.blur();
            onClose?.();
          }
        }}
      />
      {hasText && (
        <span className="muted" aria-hidden="true">
          <Trans>Enter to add</Trans>
        </span>
      )}
    </div>
  );
}
