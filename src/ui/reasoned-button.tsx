import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { notify } from './notifications';

export interface ReasonedButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'disabled' | 'type'> {
  /** Why the action cannot be used now (in words), or null/empty when it can. */
  reason: string | null | undefined;
  onClick: () => void;
  children: ReactNode;
}

/**
 * A button whose action may be unavailable for a reason (a licence, a right, a selection): it stays
 * focusable and pressable (aria-disabled, never disabled), carries the reason as its description and
 * tooltip, and says it when pressed, so a touch user (no hover), a keyboard user and a screen reader
 * all learn why. The one behaviour of every such action, whatever the reason.
 */
export function ReasonedButton({ reason, onClick, className = 'button', title, children, ...rest }: ReasonedButtonProps) {
  const why = reason || undefined;
  return (
    <button
      type="button"
      className={className}
      {...rest}
      aria-disabled={why ? true : undefined}
      title={why ?? title}
      aria-description={why ?? rest['aria-description']}
      onClick={() => (why ? notify('error', why) : onClick())}
    >
      {children}
    </button>
  );
}
