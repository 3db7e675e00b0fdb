import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useDismiss } from './use-dismiss';

export interface ContextMenuItem {
  id: string;
  label: string;
  onSelect: () => void;
  disabled?: boolean;
  /** Why a disabled item cannot be chosen: shown under its label (a touch user has no hover) and as its description. */
  reason?: string;
}

/**
 * A context menu (right-click, long-press, Shift+F10) at a point on the screen, following the WAI-ARIA
 * menu pattern: the first item takes focus, arrow keys, Home and End move between items, Enter or
 * Space choose, Escape or Tab close, and focus goes back where it was. Disabled items stay in the
 * menu (aria-disabled, still focusable) so a user learns what exists.
 */
export function ContextMenu(props: { label: string; at: { x: number; y: number }; items: readonly ContextMenuItem[]; onClose: () => void }) {
  const ref = useRef<HTMLUListElement>(null);
  const [pos, setPos] = useState(props.at);
  const { onClose } = props;
  useDismiss(ref, true, onClose);

  // Kept inside the viewport: a menu opened near the right or bottom edge opens towards the middle.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const { width, height } = el.getBoundingClientRect();
    setPos({
      x: Math.max(4, Math.min(props.at.x, window.innerWidth - width - 4)),
      y: Math.max(4, Math.min(props.at.y, window.innerHeight - height - 4)),
    });
  }, [props.at]);

  // Focus moves into the menu when it opens and back to where it came from when it closes.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      if (before?.isConnected) before.focus({ preventScroll: true });
    };
  }, []);

  const move = (from: HTMLElement, to: 'next' | 'prev' | 'first' | 'last') => {
    const all = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = all.indexOf(from);
    const next = to === 'first' ? 0 : to === 'last' ? all.length - 1 : (i + (to === 'next' ? 1 : -1) + all.length) % all.length;
    all[next]?.focus();
  };

  return (
    <ul
      ref={ref}
      role="menu"
      aria-label={props.label}
      className="context-menu"
      style={{ left: pos.x, top: pos.y }}
      onContextMenu={(ev) => ev.preventDefault()}
      onKeyDown={(ev) => {
        const item = ev.target as HTMLElement;
        const keys: Record<string, 'next' | 'prev' | 'first' | 'last'> = { ArrowDown: 'next', ArrowUp: 'prev', Home: 'first', End: 'last' };
        if (keys[ev.key]) {
          ev.preventDefault();
          move(item, keys[ev.key]!);
        } else if (ev.key === 'Tab') {
          ev.preventDefault();
          onClose();
        }
      }}
    >
      {props.items.map((it) => (
        <li key={it.id} role="none">
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            aria-disabled={it.disabled || undefined}
            // With a reason shown, the name stays the label alone and the reason is its description.
            aria-label={it.disabled && it.reason ? it.label : undefined}
            aria-description={(it.disabled && it.reason) || undefined}
            title={(it.disabled && it.reason) || undefined}
            onClick={() => {
              if (it.disabled) return;
              onClose();
              it.onSelect();
            }}
          >
            {it.label}
            {it.disabled && it.reason && (
              <span className="context-menu-reason" aria-hidden="true">
                {it.reason}
              </span>
            )}
          </button>
        </li>
      ))}
    </ul>
  );
}
