/**
 * "Start a new item" from anywhere on a board (the toolbar's New item, the `c` key, the command
 * palette): a cancelable window event. A view with an inline new-item row takes it (focuses its
 * row and cancels the event); when none does, the caller creates an item and opens it instead.
 */
export const NEW_ITEM_EVENT = 'cairn:new-item';

/** True when a view took the request (its inline row is focused now). */
export function requestNewItem(): boolean {
  return !window.dispatchEvent(new CustomEvent(NEW_ITEM_EVENT, { cancelable: true }));
}
