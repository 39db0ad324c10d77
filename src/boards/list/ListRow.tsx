import { memo } from 'react';
import { useLingui } from '@lingui/react/macro';
import { settingsOf } from '../../../schema/attributes';
import type { Attribute, Item } from '../store/live';
import type { Group } from '../model/query';
import { ValueDisplay, ValueEditor } from '../parts/values';

export const LIST_ROW_HEIGHT = 36;

export interface ListItemRowProps {
  item: Item;
  values: Map<string, unknown>;
  index: number;
  top: number;
  active: boolean;
  selected: boolean;
  editable: boolean;
  status: Attribute | undefined;
  properties: Attribute[];
  /** The status picker is open on this row. */
  picking: boolean;
  onActivate(index: number): void;
  onToggle(id: string): void;
  onOpen(item: Item): void;
  onPick(index: number): void;
  onCommit(item: Item, attribute: Attribute, value: unknown): Promise<void>;
  onCancel(): void;
}

/**
 * One item of the List: select box, its status (one click opens the picker; choosing saves),
 * its name (opens the item) and a few properties. Memoised like the table's rows: every prop is
 * stable unless this row's item, values, place, focus or selection changed.
 */
export const ListItemRow = memo(function ListItemRow(p: ListItemRowProps) {
  const { t } = useLingui();
  const { item, status } = p;
  const statusValue = status ? (p.values.get(status.id) ?? null) : null;
  const option = status && statusValue ? settingsOf('status', status.settings).options.find((o) => o.id === statusValue) : undefined;
  return (
    <div
      id={`list-row-${p.index}`}
      role="row"
      aria-selected={p.selected}
      className={`list-row${p.active ? ' is-active' : ''}${p.selected ? ' is-selected' : ''}${p.picking ? ' is-picking' : ''}`}
      style={{ top: p.top, height: LIST_ROW_HEIGHT }}
      data-item-id={item.id}
      onClick={() => p.onActivate(p.index)}
    >
      <span role="gridcell" className="list-select">
        <input type="checkbox" tabIndex={-1} aria-label={t`Select ${item.name}`} checked={p.selected} onChange={() => p.onToggle(item.id)} onClick={(e) => e.stopPropagation()} />
      </span>
      {status && (
        <span role="gridcell" className="list-status">
          <button
            type="button"
            tabIndex={-1}
            className={option ? 'label-chip list-status-chip' : 'list-status-empty'}
            style={option ? { background: option.color, color: option.textColor } : undefined}
            aria-haspopup="listbox"
            aria-expanded={p.picking}
            aria-label={option ? t`${status.name}: ${option.name}. Change` : t`${status.name}: none. Change`}
            disabled={!p.editable}
            data-testid="list-status"
            onClick={(e) => (e.stopPropagation(), p.onPick(p.index))}
          >
            {option ? option.name : '○'}
          </button>
          {p.picking && (
            <span className="list-status-picker" onClick={(e) => e.stopPropagation()}>
              <ValueEditor attribute={status} value={statusValue} item={item} onCommit={(v) => p.onCommit(item, status, v)} onCancel={p.onCancel} />
            </span>
          )}
        </span>
      )}
      <span role="gridcell" className="list-name">
        <button type="button" tabIndex={-1} className="list-open" onClick={(e) => (e.stopPropagation(), p.onOpen(item))}>
          {item.name || t`Untitled`}
        </button>
      </span>
      <span role="gridcell" className="list-properties">
        {p.properties.map((a) => (
          <span key={a.id} className="list-property" data-attribute-id={a.id} title={a.name}>
            <ValueDisplay attribute={a} value={p.values.get(a.id) ?? null} item={item} />
          </span>
        ))}
      </span>
    </div>
  );
});

export interface ListGroupRowProps {
  group: Group<Item>;
  index: number;
  top: number;
  active: boolean;
  collapsed: boolean;
  onActivate(index: number): void;
  onToggle(key: string): void;
}

/** A group's header: collapse toggle, the option chip or title, the count. */
export const ListGroupRow = memo(function ListGroupRow({ group, index, top, active, collapsed, onActivate, onToggle }: ListGroupRowProps) {
  const { t } = useLingui();
  return (
    <div id={`list-row-${index}`} role="row" aria-expanded={!collapsed} className={`list-group-row${active ? ' is-active' : ''}`} style={{ top, height: LIST_ROW_HEIGHT }} data-group-key={group.key} onClick={() => onActivate(index)}>
      <span role="gridcell" className="list-group-title">
        <button type="button" tabIndex={-1} aria-label={collapsed ? t`Expand` : t`Collapse`} onClick={(e) => (e.stopPropagation(), onActivate(index), onToggle(group.key))}>
          {collapsed ? '▸' : '▾'}
        </button>
        {group.option ? (
          <span className="label-chip" style={{ background: group.option.color, color: group.option.textColor }}>
            {group.option.name}
          </span>
        ) : (
          <span>{group.title || t`Empty`}</span>
        )}
        <span className="group-count">{group.items.length}</span>
      </span>
    </div>
  );
});
