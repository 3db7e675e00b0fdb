/**
 * The administration console's modes (the console spec §2): the shell (navigation, selected
 * database, unsaved-changes confirmation, floating add button) renders one mode at a time from
 * modes/<mode>/index.tsx, whose default export takes these props.
 */
export interface ModeProps {
  /** The selected database; null when there is none (no database yet, or none chosen). */
  dbId: number | null;
  /** The mode tells the shell it holds unsaved changes, so switching away asks CONFIRM_GENERIC_UNSAVED_CHANGES. */
  onDirtyChange: (dirty: boolean) => void;
  /**
   * The floating add button (§2 "labelled per mode"): the mode gives its translated label and what
   * a press does; null hides it. The shell shows the latest one given; useAddButton (ui/use-add-button.ts)
   * registers it from an effect and takes it away when the mode unmounts.
   */
  registerAdd: (action: AddAction | null) => void;
  /** Selects another database in the shell (the DATABASES mode's list; a database just created). */
  onSelectDb: (dbId: number | null) => void;
  /** The user administers every database (may create and delete databases); the server decides all the same. */
  isAdminAll?: boolean;
}

export interface AddAction {
  /** Translated, e.g. t('ADMIN_ADD_ARCHIVE'). */
  label: string;
  onAdd: () => void;
  disabled?: boolean;
}
