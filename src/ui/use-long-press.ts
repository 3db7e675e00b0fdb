import { useRef, type PointerEvent } from 'react';

/** How long a finger rests before it is a long-press (the platforms' own menus open after ~500 ms). */
export const LONG_PRESS_MS = 500;
/** A finger that moves further than this is scrolling, not pressing. */
const SLOP_PX = 10;

/**
 * A menu gesture: a long-press on touch (and pen) after LONG_PRESS_MS without moving, or a
 * right-click (contextmenu, which is also Shift+F10 and the menu key) instead of the browser's own
 * menu; `onLongPress` gets the point once a gesture. The click that follows a long-press's lift is
 * swallowed, so a long-press does not also tap. Spread the returned handlers on the element.
 */
export function useLongPress<E extends Element>(onLongPress: (at: { x: number; y: number }) => void) {
  const timer = useRef<number | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);
  const cancel = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
  };
  return {
    onPointerDown: (e: PointerEvent<E>) => {
      fired.current = false;
      start.current = null;
      if (e.pointerType === 'mouse') return;
      const at = { x: e.clientX, y: e.clientY };
      start.current = at;
      cancel();
      timer.current = window.setTimeout(() => {
        timer.current = null;
        fired.current = true;
        onLongPress(at);
      }, LONG_PRESS_MS);
    },
    onPointerMove: (e: PointerEvent<E>) => {
      const s = start.current;
      if (s && Math.hypot(e.clientX - s.x, e.clientY - s.y) > SLOP_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onPointerLeave: cancel,
    /** The click after a long-press is not a tap. */
    onClickCapture: (e: { preventDefault: () => void; stopPropagation: () => void }) => {
      if (!fired.current) return;
      fired.current = false;
      e.preventDefault();
      e.stopPropagation();
    },
    /** Right-click, or the browser's own long-press menu (Chromium on touch fires contextmenu): ours instead, once. */
    onContextMenu: (e: { preventDefault: () => void; clientX: number; clientY: number; currentTarget: Element }) => {
      e.preventDefault();
      if (fired.current) return;
      cancel();
      fired.current = start.current !== null;
      // From the keyboard (Shift+F10) the point is 0,0: the element's corner instead.
      const box = e.currentTarget.getBoundingClientRect();
      onLongPress(e.clientX || e.clientY ? { x: e.clientX, y: e.clientY } : { x: box.left + 8, y: box.top + 8 });
    },
  };
}
