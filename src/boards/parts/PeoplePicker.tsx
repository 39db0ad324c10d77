import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { settingsOf } from '../../../schema/attributes';
import { AvatarImage } from '../../ui/Avatar';
import { filterOptions } from '../../ui/dropdown-search';
import { useBoard } from '../BoardContext';
import type { EditorProps } from './values';
import { ErrorLine } from './ErrorLine';

/**
 * The people (members) picker (issue #30 part 6, review M5): a search field over the workspace's
 * members with their avatars; each pick saves at once and the picker stays open for the next one
 * (a single-person attribute closes on its pick). ↑/↓ move, Enter or a click picks, Escape or
 * Done closes. Picks are kept here and saved in order, so quick picks never undo one another.
 */
export function PeoplePicker(props: EditorProps) {
  const { t } = useLingui();
  const board = useBoard();
  const { attribute } = props;
  const multiple = settingsOf('members', attribute.settings).multiple !== false;
  const [picked, setPicked] = useState<number[]>(() => ((props.value as number[] | null) ?? []).slice());
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const saving = useRef<Promise<void>>(Promise.resolve());
  const listId = useId();
  const members = board.info?.members ?? [];
  const shown = useMemo(() => filterOptions(members.map((m) => ({ ...m, label: m.name, synonyms: [m.email] })), query), [members, query]);

  const pick = (id: number) => {
    const next = picked.includes(id) ? picked.filter((p) => p !== id) : multiple ? [...picked, id] : [id];
    setPicked(next);
    const how = multiple ? 'stay' : undefined;
    saving.current = saving.current.then(() =>
      props.onCommit(next, how).then(
        () => setError(null),
        (err: Error) => setError(err.message),
      ),
    );
  };
  const onKeyDown = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Escape') return props.onCancel();
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (shown.length ? (a + step + shown.length) % shown.length : 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const member = shown[Math.min(active, shown.length - 1)];
      if (member) pick(member.id);
    } else if (event.key === 'Tab') {
      props.onCancel();
    }
  };
  return (
    <span
      className="value-editor value-people"
      onKeyDown={onKeyDown}
      // Focus leaving the picker (a click on the grid, another cell) closes it; its picks are saved.
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && props.onCancel()}
      data-testid="people-picker"
    >
      <input
        className="value-input"
        autoFocus
        type="search"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={shown[active] ? `${listId}-${shown[active].id}` : undefined}
        aria-label={t`Search people`}
        placeholder={t`Search people`}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
      />
      <span className="people-list" id={listId} role="listbox" aria-label={t`Choose ${attribute.name}`} aria-multiselectable={multiple}>
        {members.length === 0 && <span className="hint">{t`No members to choose from.`}</span>}
        {members.length > 0 && shown.length === 0 && <span className="hint">{t`No one matches.`}</span>}
        {shown.map((m, i) => (
          <span
            key={m.id}
            id={`${listId}-${m.id}`}
            role="option"
            aria-selected={picked.includes(m.id)}
            className={`people-option${i === active ? ' is-active' : ''}`}
            // Keeps focus in the search field, so typing goes on after a pick.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(m.id)}
            onMouseEnter={() => setActive(i)}
          >
            <AvatarImage name={m.name} photoUrl={m.photo_url} size="xs" />
            <span className="people-name">{m.name}</span>
            <span className="people-check" aria-hidden="true">
              {picked.includes(m.id) ? '✓' : ''}
            </span>
          </span>
        ))}
      </span>
      <button type="button" onClick={props.onCancel}>
        {t`Done`}
      </button>
      <ErrorLine error={error} />
    </span>
  );
}

/** People in a cell: small avatars, then the names. */
export function PeopleDisplay({ ids }: { ids: number[] }) {
  const { t } = useLingui();
  const board = useBoard();
  const members = board.info?.members ?? [];
  const people = ids.map((id) => members.find((m) => m.id === id) ?? { id, name: t`Removed User`, photo_url: null });
  return (
    <span className="value-people-display" title={people.map((p) => p.name).join(', ')}>
      {people.slice(0, 3).map((p) => (
        <AvatarImage key={p.id} name={p.name} photoUrl={p.photo_url} size="xs" />
      ))}
      <span className="value-text">{people.map((p) => p.name).join(', ')}</span>
    </span>
  );
}
