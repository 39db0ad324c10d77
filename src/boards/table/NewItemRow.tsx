import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { NEW_ITEM_EVENT } from '../keys/new-item-event';

/**
 * The inline "new item" row under the table (issue #17 part 2): type the name, Enter adds the item
 * and leaves the row ready for the next one; Escape leaves it. The toolbar's New item, the `c` key
 * and the command palette focus it (NEW_ITEM_EVENT).
 */
export function NewItemRow({ onAdd }: { onAdd(name: string): Promise<unknown> }) {
  const { t } = useLingui();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const take = (event: Event) => {
      event.preventDefault();
      input.current?.focus();
      input.current?.scrollIntoView({ block: 'nearest' });
    };
    window.addEventListener(NEW_ITEM_EVENT, take);
    return () => window.removeEventListener(NEW_ITEM_EVENT, take);
  }, []);
  const add = async () => {
    const trimmed = name.trim();
    if (!trimmed || busy) return;
    setBusy(true);
    try {
      await onAdd(trimmed);
      setName('');
    } finally {
      setBusy(false);
      input.current?.focus();
    }
  };
  return (
    <div className="table-new-item" data-testid="new-item-row">
      <span aria-hidden="true">+</span>
      <input
        ref={input}
        value={name}
        placeholder={t`Add item`}
        aria-label={t`New item name`}
        maxLength={10_000}
        data-testid="new-item-input"
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void add();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            setName('');
            input.current?.blur();
          }
        }}
      />
      {name.trim() && (
        <span className="muted" aria-hidden="true">
          <Trans>Enter to add</Trans>
        </span>
      )}
    </div>
  );
}
