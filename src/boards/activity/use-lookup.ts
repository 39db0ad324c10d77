import { useMemo } from 'react';
import type { Member } from '../../api/endpoints';
import type { Attribute, Folder, Item } from '../store/live';
import type { ActivityLookup } from './activity-format';

/** Names for the activity lines, from the board's replica and the workspace's members. */
export function useActivityLookup(attributes: readonly Attribute[] | undefined, folders: readonly Folder[] | undefined, items: readonly Item[] | undefined, members: readonly Member[]): ActivityLookup {
  return useMemo(() => {
    const attributeById = new Map((attributes ?? []).map((a) => [a.id, a]));
    const folderById = new Map((folders ?? []).map((f) => [f.id, f.name]));
    const itemById = new Map((items ?? []).map((i) => [i.id, i.name]));
    const memberById = new Map(members.map((m) => [m.id, m.name]));
    return {
      attribute: (id) => attributeById.get(id),
      folderName: (id) => folderById.get(id),
      itemName: (id) => itemById.get(id),
      memberName: (id) => memberById.get(id),
    };
  }, [attributes, folders, items, members]);
}
