/**
 * The bulk update dialogs' rules (the user-app spec §5, §6), pure so they are tested without a browser:
 * who may open them, what the basic tab needs before it may count (at least one new value, no
 * invalid value, a selected search; the checked documents or the whole search), and the request it
 * sends (wire values: the field rules' normalised form, the same rules the server applies again).
 */
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS, type Field } from '../../api/archives';
import { UPDATE_REVISION_ARCHIVE_KEY, type BasicBulkUpdate, type BulkValue } from '../../api/bulk-update';
import { isLiveField, isReadOnlyProp, READ_ONLY_LICENCE_TYPE } from '../../fields/editability';
import { fieldWireValue } from '../../fields/wire-value';

export type BulkBlocked = typeof UPDATE_REVISION_ARCHIVE_KEY | 'BULK_UPDATE_NO_EDIT_RIGHT' | null;

/** Licence 4 gets no button at all (§6 disables bulk update for it). */
export const bulkUpdateShown = (licenceType: number | undefined): boolean => licenceType !== READ_ONLY_LICENCE_TYPE;

/** Why the button refuses (shown with it, said again when pressed), or null. */
export function bulkUpdateBlocked(archiveProps: number | null, permissions: number | null): BulkBlocked {
  if (archiveProps !== null && (archiveProps & ARCHIVE_PROPS.revisionControl) !== 0) return UPDATE_REVISION_ARCHIVE_KEY;
  if (permissions !== null && (permissions & ARCHIVE_PERMISSIONS.edit) === 0) return 'BULK_UPDATE_NO_EDIT_RIGHT';
  return null;
}

/** The fields a bulk update may set: not read-only by Prop, not live. */
export const updatableFields = <F extends Pick<Field, 'Prop' | 'ExtendedConfig'>>(fields: readonly F[]): F[] => fields.filter((f) => !isReadOnlyProp(f.Prop) && !isLiveField(f));

export type BulkScope = 'checked' | 'all';

export interface BasicForm {
  scope: BulkScope;
  /** Field id -> the value as typed; only ticked fields are in it. */
  values: Record<number, string>;
}

export interface BasicProblem {
  /** 'values': no field ticked; 'scope': nothing checked; 'search': no search; else the field id. */
  field: 'values' | 'scope' | 'search' | number;
  key: string;
  message?: string;
}

export function basicProblems(form: BasicForm, fields: readonly Field[], ctx: { searchId: number; checked: number }, locale: string): BasicProblem[] {
  const out: BasicProblem[] = [];
  if (!ctx.searchId) out.push({ field: 'search', key: 'BULK_UPDATE_NEED_SEARCH' });
  if (form.scope === 'checked' && ctx.checked === 0) out.push({ field: 'scope', key: 'ERROR_NO_DOCUMENTS_SELECTED' });
  const ids = Object.keys(form.values).map(Number);
  if (!ids.length) out.push({ field: 'values', key: 'BULK_UPDATE_NEED_VALUE' });
  for (const id of ids) {
    const f = fields.find((x) => x.ID === id);
    if (!f) continue;
    const r = fieldWireValue(f, form.values[id] ?? '', locale);
    if ('problem' in r) out.push(r.problem);
  }
  return out;
}

export interface BasicContext {
  dbId: number;
  archiveId: number;
  searchId: number;
  criteria: string;
  checked: readonly { id: number; archiveId: number }[];
}

/** The request of a valid form (basicProblems empty). */
export function buildBasicRequest(form: BasicForm, fields: readonly Field[], c: BasicContext, locale: string, limit?: number): BasicBulkUpdate {
  const values: BulkValue[] = [];
  for (const f of fields) {
    if (!(f.ID in form.values)) continue;
    const r = fieldWireValue(f, form.values[f.ID] ?? '', locale);
    if ('value' in r) values.push(r.value);
  }
  return {
    DatabaseID: c.dbId,
    ArchiveID: c.archiveId,
    SearchID: c.searchId,
    SearchInfo: { SearchCriteria: c.criteria },
    UpdateType: form.scope === 'checked' ? 'documentSelectUpdate' : 'simple',
    ...(form.scope === 'checked' ? { Docs: c.checked.map((d) => ({ ArchiveID: d.archiveId, DocID: d.id })) } : {}),
    Values: values,
    ...(limit !== undefined ? { Limit: limit } : {}),
  };
}

/** The Update call of a basic request (the user-app spec §7 Update). */
export const basicCall = (r: Pick<BasicBulkUpdate, 'UpdateType'>) => (r.UpdateType === 'documentSelectUpdate' ? ('UserPassedUpdateSearch' as const) : ('UserPassedBulkUpdateSearch' as const));
