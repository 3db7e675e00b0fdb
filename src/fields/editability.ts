/**
 * Who may edit which grid cell (the user-app spec §5 "Cell editing", §6; the archive-ops spec §3 Prop
 * bits): edit mode on, the row's permission has the edit bit (1024 archive documents, 4 inbox
 * files), the licence is not web-only read-only (type 4), and the field is not a system or
 * read-only field.
 */
import type { Field } from '../api/archives';

/** Prop bits that make a cell read-only: date entered, indexed by, page count, last modified by, 512, file type, read-only, 4096, 8192. */
export const READ_ONLY_PROP_BITS = [4, 8, 16, 256, 512, 1024, 2048, 4096, 8192] as const;
export const READ_ONLY_PROP_MASK = READ_ONLY_PROP_BITS.reduce((a, b) => a | b, 0);
export const ARCHIVE_EDIT_PERMISSION = 1024;
export const INBOX_EDIT_PERMISSION = 4;
export const READ_ONLY_LICENCE_TYPE = 4;
const REQUIRED = 2;

export interface CellEditContext {
  editMode: boolean;
  rowPermissions: number | null | undefined;
  isInbox: boolean;
  licenceType: number | null | undefined;
  fieldProp: number | null | undefined;
}

export const isReadOnlyProp = (prop: number | null | undefined): boolean => ((prop ?? 0) & READ_ONLY_PROP_MASK) !== 0;

/** May the user edit this row at all (before looking at the field)? */
export function canEditRow(c: Omit<CellEditContext, 'fieldProp' | 'editMode'>): boolean {
  if (c.licenceType === READ_ONLY_LICENCE_TYPE) return false;
  const bit = c.isInbox ? INBOX_EDIT_PERMISSION : ARCHIVE_EDIT_PERMISSION;
  return ((c.rowPermissions ?? 0) & bit) !== 0;
}

export function isCellEditable(c: CellEditContext): boolean {
  return c.editMode && canEditRow(c) && !isReadOnlyProp(c.fieldProp);
}

/** Required column: Prop 2; every column of the inbox grid is required. */
export function isRequired(prop: number | null | undefined, opts: { isInbox?: boolean } = {}): boolean {
  return Boolean(opts.isInbox) || ((prop ?? 0) & REQUIRED) !== 0;
}

/** A live field (ExtendedConfig.LiveField) is filled by the server from an outside source. */
export const isLiveField = (field: Pick<Field, 'ExtendedConfig'>): boolean => Boolean(field.ExtendedConfig?.LiveField);

/** the user-app spec §5: live fields are removed from the grid and disable grid edit. */
export function gridFields<F extends Pick<Field, 'ExtendedConfig'>>(fields: readonly F[]): { columns: F[]; editAllowed: boolean } {
  const columns = fields.filter((f) => !isLiveField(f));
  return { columns, editAllowed: columns.length === fields.length };
}
