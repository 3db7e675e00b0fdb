import { useState, type KeyboardEvent } from 'react';

/**
 * The suggestions under a console text box (icon names, advanced-link placeholders; at most 100,
 * the console spec §9): a listbox the box controls by aria-activedescendant, so focus stays in the
 * box; ArrowUp/ArrowDown move, Enter takes the active one, Escape closes. Options are picked on
 * mousedown (before the box would lose its focus), which a tap on a touch screen also fires.
 */
export function useSuggestionKeys(options: readonly string[], open: boolean, onChoose: (option: string) => void, onClose: () => void) {
  const [active, setActive] = useState(-1);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (!open || options.length === 0) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(a + 1, options.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === 'Enter' && active >= 0 && options[active] !== undefined) {
      e.preventDefault();
      onChoose(options[active]);
      setActive(-1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
      setActive(-1);
    }
  };
  return { active: Math.min(active, options.length - 1), setActive, onKeyDown };
}

/** The props a text box needs to control a SuggestionList. */
export function comboboxProps(listId: string, open: boolean, active: number) {
  return {
    role: 'combobox' as const,
    'aria-expanded': open,
    'aria-controls': listId,
    'aria-autocomplete': 'list' as const,
    'aria-activedescendant': open && active >= 0 ? `${listId}-${active}` : undefined,
    autoComplete: 'off',
    spellCheck: false,
  };
}

export function SuggestionList(props: { id: string; label: string; options: readonly string[]; active: number; onChoose: (option: string) => void; testId?: string }) {
  if (props.options.length === 0) return null;
  return (
    <ul id={props.id} role="listbox" aria-label={props.label} className="admin-suggestions" data-testid={props.testId}>
      {props.options.map((o, i) => (
        <li
          key={o}
          id={`${props.id}-${i}`}
          role="option"
          aria-selected={i === props.active}
          onMouseDown={(e) => {
            e.preventDefault();
            props.onChoose(o);
          }}
        >
          {o}
        </li>
      ))}
    </ul>
  );
}
