import type { ConsoleSearch } from '../../api/searches';

/** The searches as a tree by parent (a search whose parent is gone is shown at the top level). */
export function SearchTree(props: { searches: readonly ConsoleSearch[]; selected: number | null; onSelect: (id: number) => void }) {
  const ids = new Set(props.searches.map((s) => s.id));
  const children = (parent: number) => props.searches.filter((s) => (parent === 0 ? s.parent === 0 || !ids.has(s.parent) : s.parent === parent) && s.id !== parent);
  const seen = new Set<number>();
  const branch = (parent: number) => (
    <ul className="admin-list">
      {children(parent)
        .filter((s) => !seen.has(s.id) && seen.add(s.id))
        .map((s) => (
          <li key={s.id}>
            <button type="button" className="admin-list-item" aria-current={props.selected === s.id} onClick={() => props.onSelect(s.id)}>
              {s.name}
            </button>
            {props.searches.some((c) => c.parent === s.id) && branch(s.id)}
          </li>
        ))}
    </ul>
  );
  return branch(0);
}
