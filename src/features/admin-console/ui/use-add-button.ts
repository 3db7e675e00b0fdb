import { useEffect, useRef } from 'react';
import type { AddAction, ModeProps } from '../mode-props';

/**
 * Registers the mode's floating add button with the shell while the mode is shown. The handler is
 * read through a ref, so a new closure each render does not re-register; label and disabled do.
 */
export function useAddButton(registerAdd: ModeProps['registerAdd'], action: AddAction | null): void {
  const onAdd = useRef(action?.onAdd);
  useEffect(() => {
    onAdd.current = action?.onAdd;
  });
  const label = action?.label ?? null;
  const disabled = action?.disabled ?? false;
  useEffect(() => {
    if (label === null) {
      registerAdd(null);
      return;
    }
    registerAdd({ label, disabled, onAdd: () => onAdd.current?.() });
    return () => registerAdd(null);
  }, [registerAdd, label, disabled]);
}
