import { useLayoutEffect, type RefObject } from 'react';

/**
 * Keeps an open popover panel inside the viewport horizontally. A panel is placed by CSS beside its
 * button (left- or right-aligned), which runs off the screen when the button sits near the other
 * edge (the Columns menu at the right of a 1366 px toolbar, the tray at the left of a tablet's
 * header): measured after layout and shifted back in, before the browser paints it.
 */
export function useKeepInView(ref: RefObject<HTMLElement | null>, open: boolean, margin = 8): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!open || !el) return;
    const place = () => {
      el.style.translate = '';
      const r = el.getBoundingClientRect();
      const width = document.documentElement.clientWidth;
      let dx = 0;
      if (r.right > width - margin) dx = width - margin - r.right;
      if (r.left + dx < margin) dx = margin - r.left;
      if (dx !== 0) el.style.translate = `${Math.round(dx)}px 0`;
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [ref, open, margin]);
}
