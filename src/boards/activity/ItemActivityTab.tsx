import { useBoard } from '../BoardContext';
import { useItems, type Item } from '../store/live';
import { ActivityList } from './ActivityList';
import { useActivityLookup } from './use-lookup';

/** The item panel's activity tab (`?t=activity`): this item's log. */
export default function ItemActivityTab({ item }: { item: Item }) {
  const board = useBoard();
  const items = useItems(board.boardId);
  const members = board.info?.members ?? [];
  const lookup = useActivityLookup(board.attributes, board.folders, items, members);
  return <ActivityList teamId={board.teamId} scope={{ itemId: item.id }} lookup={lookup} members={members} />;
}
