/**
 * The archive list of a multi-archive search (the user-app spec §3 searchSetting): counts from
 * ArchiveCounts; sorted by count (largest first) with multiArchiveCountSort; archives without results
 * hidden with multiArchiveHideEmpty (the current archive always stays).
 */
export interface ArchiveChoice {
  id: number;
  name: string;
  /** null while the counts are not known. */
  count: number | null;
}

export function mergeArchiveCounts(
  archives: readonly { Id?: number; ID?: number; Name: string }[],
  counts: readonly { Id: number; Count: number }[] | undefined,
): ArchiveChoice[] {
  const byId = new Map((counts ?? []).map((c) => [c.Id, c.Count]));
  const out: ArchiveChoice[] = [];
  for (const a of archives) {
    const id = a.Id ?? a.ID;
    if (typeof id !== 'number') continue;
    out.push({ id, name: a.Name, count: counts ? (byId.get(id) ?? 0) : null });
  }
  return out;
}

export function archiveChoices(list: readonly ArchiveChoice[], opts: { sortByCount: boolean; hideEmpty: boolean; keep?: number }): ArchiveChoice[] {
  let out = [...list];
  if (opts.hideEmpty) out = out.filter((a) => a.count === null || a.count > 0 || a.id === opts.keep);
  if (opts.sortByCount) out = out.map((a, i) => ({ a, i })).sort((x, y) => (y.a.count ?? -1) - (x.a.count ?? -1) || x.i - y.i).map((x) => x.a);
  return out;
}
