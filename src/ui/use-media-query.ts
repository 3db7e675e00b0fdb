import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now; re-renders when it starts or stops matching (a rotation, a resize). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const q = typeof matchMedia === 'function' ? matchMedia(query) : null;
      q?.addEventListener('change', onChange);
      return () => q?.removeEventListener('change', onChange);
    },
    () => (typeof matchMedia === 'function' ? matchMedia(query).matches : false),
    () => false,
  );
}

/**
 * A screen too narrow for a side panel beside the grid (a tablet in portrait): panels become sheets
 * over the grid. The same width as the CSS that lays them out (editing.css, results.css).
 */
export const NARROW_SCREEN = '(max-width: 900px)';
