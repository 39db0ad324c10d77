/**
 * Which z-index a floating element (a menu, a select's list, a popover) needs so that it shows
 * above the layer its anchor sits in. Floating elements are portalled to <body> with
 * `--z-popup`, below `--z-modal`: one opened from inside a modal, the palette or the mobile
 * sidebar would open under it and the layer would take its clicks. So it goes one above the
 * highest z-index among its anchor and the anchor's ancestors, or keeps its own when that is
 * higher (its own is read again on each placement, then inline: the answer stays the same).
 */
export function zIndexAbove(anchor: Element | null, floating: Element): number | undefined {
  const own = Number.parseInt(getComputedStyle(floating).zIndex, 10);
  let highest = Number.NEGATIVE_INFINITY;
  for (let el: Element | null = anchor; el && el !== document.body; el = el.parentElement) {
    const z = Number.parseInt(getComputedStyle(el).zIndex, 10);
    if (Number.isFinite(z) && z > highest) highest = z;
  }
  if (!Number.isFinite(highest)) return undefined;
  return Number.isFinite(own) && own > highest ? own : highest + 1;
}
