import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLingui } from '@lingui/react/macro';
import { Button } from '../../ui/Button';
import { useBoard } from '../BoardContext';
import type { Item } from '../store/live';

const ROW = 32;

/**
 * The items behind a clicked bar, slice or point: a list (virtualised, a segment may hold tens of
 * thousands) whose names open the item panel.
 */
export function SegmentItems({ title, items, onClose }: { title: string; items: Item[]; onClose(): void }) {
  const { t } = useLingui();
  const board = useBoard();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: items.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 8 });
  return (
    <section className="chart-segment" aria-label={title} data-testid="chart-segment">
      <header className="chart-segment-head">
        <h3>
          {title} <span className="group-count">{items.length === 1 ? t`1 item` : t`${items.length} items`}</span>
        </h3>
        <Button size="sm" variant="ghost" onClick={onClose}>
          {t`Close`}
        </Button>
      </header>
      <div ref={scrollRef} className="chart-segment-scroll">
        <ul className="chart-segment-list" style={{ height: virtual.getTotalSize() }}>
          {virtual.getVirtualItems().map((vr) => {
            const item = items[vr.index]!;
            return (
              <li key={item.id} style={{ top: vr.start, height: ROW }}>
                <button type="button" className="list-open" onClick={() => board.openItem(item.id, item.folder_id)}>
                  {item.name || t`Untitled`}
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
