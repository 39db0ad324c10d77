/**
 * What every board starts with, shared by the server (new boards, the demo, migration 0170) and
 * the client (create board, new Status attribute). docs/decisions/0170-board-name-attribute.md.
 */

/** The name attribute the server gives a board that has none: one per board, so its id follows from the board's. */
export const primaryAttributeIdFor = (boardId: string): string => `${boardId}.name`;

/** Its stored name; the table heads it with the translated "Name". */
export const PRIMARY_ATTRIBUTE_NAME = 'Name';

/**
 * The options a new Status attribute starts with: readable pairs (text on fill ≥ 4.5:1 in both
 * themes, the fill carries the meaning and the text stays legible). Names are data (English), like
 * the user's own options; the ids are stable so the demo and tests can point at them.
 */
export const DEFAULT_STATUS_OPTIONS: readonly { id: string; name: string; color: string; textColor: string }[] = [
  { id: 'todo', name: 'To do', color: '#D0D4E4', textColor: '#1F2937' },
  { id: 'doing', name: 'In progress', color: '#FDAB3D', textColor: '#1F2937' },
  { id: 'done', name: 'Done', color: '#00854D', textColor: '#FFFFFF' },
  { id: 'stuck', name: 'Stuck', color: '#C4314B', textColor: '#FFFFFF' },
];
