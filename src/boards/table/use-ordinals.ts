import { useEffect, useState } from 'react';
import { useBoard } from '../BoardContext';
import type { Attribute } from '../store/live';

/** Custom IDs number items by creation on the board (only computed when a custom-id column shows). */
export function useOrdinals(columns: Attribute[]): Map<string, number> | null {
  const board = useBoard();
  const needed = columns.some((c) => c.kind === 'custom-id');
  const [map, setMap] = useState<Map<string, number> | null>(null);
  useEffect(() => {
    if (!needed) return;
    let live = true;
    void board.backend.db.records
      .where('[collection+board_id]')
      .equals(['item', board.boardId])
      .toArray()
      .then((all) => {
        const sorted = all.sort((a, b) => String(a.created_at ?? '').localeCompare(String(b.created_at ?? '')) || a.id.localeCompare(b.id));
        if (live) setMap(new Map(sorted.map((r, i) => [r.id, i + 1])));
      });
    return () => {
      live = false;
    };
  }, [needed, board]);
  return needed ? map : null;
}
