/**
 * The search editor's rules over the designer catalogue (pure; the server applies the same ones on
 * save, src/api/admin-searches.ts): which fields a parameter may name, and what a search looks like
 * when opened for editing (versions archives and parameters of deleted fields dropped, §5).
 */
import { splitParameters, withoutVersionsArchives } from '../../../../api/admin-searches';
import type { ConsoleSearch, DesignerArchive, SearchDraft } from '../../api/searches';

/** The chosen archives and their sub-archives (the server searches those too). */
function withSubArchives(archives: readonly DesignerArchive[], ids: readonly number[]): DesignerArchive[] {
  const out = [...ids];
  for (let i = 0; i < out.length; i++) for (const a of archives) if (a.parent === out[i] && !out.includes(a.id)) out.push(a.id);
  return out.map((id) => archives.find((a) => a.id === id)).filter((a): a is DesignerArchive => a !== undefined);
}

/** Fields a parameter may take (each once, in archive order) and whether a content-search text prompt is offered. */
export function searchFieldChoices(archives: readonly DesignerArchive[], chosen: readonly number[]): { fields: { id: number; name: string }[]; contentSearch: boolean } {
  const scope = withSubArchives(archives, chosen);
  const fields: { id: number; name: string }[] = [];
  for (const a of scope) for (const f of a.fields) if (!fields.some((x) => x.id === f.id)) fields.push({ id: f.id, name: f.name });
  return { fields, contentSearch: scope.some((a) => a.contentSearch) };
}

export function toDraft(s: ConsoleSearch): SearchDraft {
  const { id: _id, hash: _hash, ...draft } = s;
  return draft;
}

/** A search as its editor opens it: Versions archives removed, parameters of fields no longer in its archives dropped (and named). */
export function openForEdit(s: ConsoleSearch, archives: readonly DesignerArchive[]): { draft: SearchDraft; dropped: SearchDraft['parameters'] } {
  const draft = toDraft(s);
  const { kept } = withoutVersionsArchives(draft.archives, archives);
  const ids = new Set(searchFieldChoices(archives, kept).fields.map((f) => f.id));
  const split = splitParameters(draft.parameters, (p) => p.field, ids);
  return { draft: { ...draft, archives: kept, parameters: split.kept }, dropped: split.dropped };
}
