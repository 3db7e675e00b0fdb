import type { ConsoleArchive } from '../../api/archives';

/** The archives as nested lists (sub-archives under their parent), each a button that selects it (aria-current when chosen). */
export function ArchiveTree(props: { archives: readonly ConsoleArchive[]; selected: number | null; onSelect: (id: number) => void }) {
  const ids = new Set(props.archives.map((a) => a.id));
  const children = (parent: number | null) => props.archives.filter((a) => (parent === null ? a.parent === null || !ids.has(a.parent) : a.parent === parent));
  const branch = (parent: number | null) => (
    <ul className="admin-list">
      {children(parent).map((a) => {
        const kids = children(a.id);
        return (
          <li key={a.id}>
            <button type="button" className="admin-list-item" aria-current={a.id === props.selected ? 'true' : undefined} onClick={() => props.onSelect(a.id)}>
              {a.name}
            </button>
            {kids.length > 0 && branch(a.id)}
          </li>
        );
      })}
    </ul>
  );
  return branch(null);
}
