import { useMemo, useState, type KeyboardEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { settingsOf } from '../../../schema/attributes';
import { filterOptions } from '../../ui/dropdown-search';
import { useBoard } from '../BoardContext';
import { useItems, useRecord, type Item } from '../store/live';
import type { EditorProps } from './values';
import { ErrorLine } from './ErrorLine';

/** At most this many matches are listed; typing narrows the rest (a board may hold 10,000 items). */
const MAX_SHOWN = 50;

/** The board a reference attribute points at (its own board when none is set). */
export function referencedBoardId(settings: unknown, ownBoardId: string): string {
  return settingsOf('reference', settings).board_id ?? ownBoardId;
}

/** One referenced item's name (from this device's copy; an item not here yet shows as unknown). */
function ReferenceName({ id }: { id: string }) {
  const { t } = useLingui();
  const item = useRecord<Item>('item', id);
  if (item === undefined) return null;
  return <span className="reference-chip">{item && !item.deleted_at ? item.name || t`Untitled` : t`Unknown item`}</span>;
}

/** The display of a reference value: the linked items' names. */
export function ReferenceNames({ ids }: { ids: string[] }) {
  return (
    <span className="value-text reference-names">
      {ids.map((id) => (
        <ReferenceName key={id} id={id} />
      ))}
    </span>
  );
}

/**
 * Picks items of the referenced board: a search box with the dropdown search of shell.md §5
 * (word prefixes, accents ignored; src/ui/dropdown-search.ts), the matches as options (arrow keys,
 * Enter toggles), and the chosen items as removable chips. With `multiple` off, choosing one
 * replaces the value and closes the picker.
 */
export function ReferenceEditor(props: EditorProps) {
  const { t } = useLingui();
  const board = useBoard();
  const settings = settingsOf('reference', props.attribute.settings);
  const boardId = referencedBoardId(props.attribute.settings, board.boardId);
  const items = useItems(boardId);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const current = (props.value as string[] | null) ?? [];

  const options = useMemo(() => {
    const live = (items ?? []).filter((i) => !i.deleted_at && i.id !== props.item.id).map((i) => ({ id: i.id, label: i.name || t`Untitled` }));
    return filterOptions(live, query).slice(0, MAX_SHOWN);
  }, [items, query, props.item.id, t]);

  const commit = async (next: string[]) => {
    try {
      await props.onCommit(next);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const toggle = async (id: string) => {
    if (!settings.multiple) {
      await commit(current.includes(id) ? [] : [id]);
      props.onCancel();
      return;
    }
    await commit(current.includes(id) ? current.filter((c) => c !== id) : [...current, id]);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Escape') props.onCancel();
    else if (event.key === 'ArrowDown') (event.preventDefault(), setActive((a) => Math.min(a + 1, options.length - 1)));
    else if (event.key === 'ArrowUp') (event.preventDefault(), setActive((a) => Math.max(a - 1, 0)));
    else if (event.key === 'Enter' && options[active]) (event.preventDefault(), void toggle(options[active]!.id));
  };
  const listId = `reference-options-${props.attribute.id}`;

  return (
    <span className="value-editor reference-editor" data-testid="reference-editor">
      {current.length > 0 && (
        <span className="reference-chosen">
          {current.map((id) => (
            <span key={id} className="reference-choice">
              <ReferenceName id={id} />
              <button type="button" aria-label={t`Remove link`} onClick={() => void commit(current.filter((c) => c !== id))}>
                ×
              </button>
            </span>
          ))}
        </span>
      )}
      <input
        autoFocus
        className="value-input"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={options[active] ? `${listId}-${options[active]!.id}` : undefined}
        aria-label={t`Search items`}
        placeholder={t`Search items`}
        value={query}
        onChange={(e) => (setQuery(e.target.value), setActive(0))}
        onKeyDown={onKeyDown}
      />
      <ul className="reference-options" role="listbox" id={listId} aria-multiselectable={settings.multiple}>
        {items === undefined && <li className="hint">{t`Loading…`}</li>}
        {items !== undefined && options.length === 0 && <li className="hint">{boardId === board.boardId || items.length > 0 ? t`No matching items.` : t`Open the referenced board once to pick its items here.`}</li>}
        {options.map((o, i) => (
          <li
            key={o.id}
            id={`${listId}-${o.id}`}
            role="option"
            aria-selected={current.includes(o.id)}
            className={i === active ? 'is-active' : undefined}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => void toggle(o.id)}
          >
            {current.includes(o.id) ? '✓ ' : ''}
            {o.label}
          </li>
        ))}
      </ul>
      <button type="button" onClick={props.onCancel}>
        {t`Done`}
      </button>
      <ErrorLine error={error} />
    </span>
  );
}
