/**
 * The archive's advanced links for the shown document (the archive-ops spec §3; src/api/advanced-links.ts):
 * a button that opens a list of links, each its template filled with the document id, the archive id
 * and the document's saved field values, opened in a new tab (rel noopener: the page opened gets no
 * handle on this one). A template that does not give an http(s) address is listed, unavailable, with
 * the reason. Nothing is shown while the archive has no links.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fillAdvancedLink } from '../../../api/advanced-links';
import type { DocumentPage } from '../../../api/search';
import { useAdvancedLinks } from '../api/advanced-links';

export function AdvancedLinksMenu({ scope, db, archiveId, docId, page }: { scope: string | null; db: number; archiveId: number; docId: number; page: DocumentPage | undefined }) {
  const { t } = useTranslation();
  const links = useAdvancedLinks(scope, db, archiveId);
  const [open, setOpen] = useState(false);
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [open]);

  const list = links.data ?? [];
  if (list.length === 0) return null;
  const doc = page?.Docs.find((d) => d.Id === docId);
  const names = new Map((page?.Fields ?? []).map((f) => [f.ID, f.Name]));
  const values = {
    documentId: docId,
    archiveId,
    fields: (doc?.Fields ?? []).flatMap((f) => (names.has(f.ID) ? [{ name: names.get(f.ID)!, VAL: f.VAL, MVAL: f.MVAL }] : [])),
  };
  return (
    <div ref={ref} className="viewer-links">
      <button type="button" className="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        {t('ADVANCED_LINKS', { count: list.length })}
      </button>
      {open && (
        <ul id={id} className="viewer-links-list" aria-label={t('ADVANCED_LINKS_LIST')}>
          {list.map((l) => {
            const filled = fillAdvancedLink(l.UrlPattern, values);
            return (
              <li key={l.Id}>
                {filled.ok ? (
                  <a href={filled.url} target="_blank" rel="noopener noreferrer" onClick={() => setOpen(false)}>
                    {l.Name}
                  </a>
                ) : (
                  <span aria-disabled="true" title={t('ADVANCED_LINK_INVALID')}>
                    {l.Name} — {t('ADVANCED_LINK_INVALID')}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
