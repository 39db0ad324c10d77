/**
 * Stack of open overlays (modals, menus, sheets). Escape and outside clicks belong to the topmost
 * layer only, so Escape in a menu inside a modal closes the menu, not the modal.
 */
export interface LayerStack {
  push(id: string): void;
  remove(id: string): void;
  isTop(id: string): boolean;
  size(): number;
}

export function createLayerStack(): LayerStack {
  const ids: string[] = [];
  return {
    push(id) {
      const at = ids.indexOf(id);
      if (at >= 0) ids.splice(at, 1);
      ids.push(id);
    },
    remove(id) {
      const at = ids.indexOf(id);
      if (at >= 0) ids.splice(at, 1);
    },
    isTop: (id) => ids.length > 0 && ids[ids.length - 1] === id,
    size: () => ids.length,
  };
}

/** The app-wide stack shared by all overlay components. */
export const layers = createLayerStack();
