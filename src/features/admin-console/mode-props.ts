/**
 * The administration console's modes (admin-console.md §2): the shell (navigation, selected
 * database, unsaved-changes confirmation) renders one mode at a time from modes/<mode>/index.tsx,
 * whose default export takes these props.
 */
export interface ModeProps {
  /** The selected database; null when there is none (no database yet, or none chosen). */
  dbId: number | null;
  /** The mode tells the shell it holds unsaved changes, so switching away asks CONFIRM_GENERIC_UNSAVED_CHANGES. */
  onDirtyChange: (dirty: boolean) => void;
}
