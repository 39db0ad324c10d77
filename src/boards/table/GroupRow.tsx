import { memo } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { Item } from '../store/live';
import type { Group } from '../model/query';
import { ROW_HEIGHT } from './use-table-virtual';

export interface GroupRowProps {
  group: Group<Item>;
  rowIndex: number;
  top: number;
  width: number;
  collapsed: boolean;
  active: boolean;
  /** A dragged row would land in this group. */
  dropTarget: boolean;
  onToggle(key: string): void;
}

/** A group's header row in a grouped table: its option chip or title, its count, collapse. */
export const GroupRow = memo(function GroupRow({ group, rowIndex, top, width, collapsed, active, dropTarget, onToggle }: GroupRowProps) {
  const { t } = useLingui();
  return (
    <div role="row" className={`table-group-row${dropTarget ? ' is-drop-target' : ''}`} style={{ top, height: ROW_HEIGHT, width }} aria-rowindex={rowIndex + 2} data-group-key={group.key}>
      <div id={`cell-${rowIndex}-0`} role="gridcell" className={`table-group-title${active ? ' is-active' : ''}`} aria-expanded={!collapsed}>
        <button type="button" tabIndex={-1} onClick={() => onToggle(group.key)}>
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
      </div>
    </div>
  );
});
