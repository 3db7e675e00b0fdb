import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDismiss } from '../../../ui/use-dismiss';
import { useKeepInView } from '../../../ui/use-keep-in-view';
import type { ColumnView } from '../grid-logic';

/** "Columns": show/hide, pin (fixed left) and move each configurable column. */
export function ColumnsMenu(props: {
  columns: readonly ColumnView[];
  onToggleHidden: (id: string) => void;
  onTogglePinned: (id: string) => void;
  onMove: (id: string, delta: -1 | 1) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const cols = props.columns.filter((c) => c.configurable);

  const panelRef = useRef<HTMLDivElement>(null);
  useDismiss(ref, open, () => setOpen(false));
  useKeepInView(panelRef, open);

  return (
    <div className="results-columns" ref={ref}>
      <button type="button" className="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        {t('RESULTS_COLUMNS')}
      </button>
      {open && (
        <div id={panelId} ref={panelRef} className="results-columns-panel" role="group" aria-label={t('RESULTS_COLUMNS')}>
          <ul>
            {cols.map((c, i) => (
              <li key={c.id}>
                <label className="results-columns-show">
                  <input type="checkbox" checked={!c.hidden} onChange={() => props.onToggleHidden(c.id)} />
                  {c.title}
                </label>
                <label className="results-columns-pin">
                  <input type="checkbox" checked={c.pinned} onChange={() => props.onTogglePinned(c.id)} aria-label={t('RESULTS_PIN_COLUMN', { name: c.title })} />
                  {t('RESULTS_PIN')}
                </label>
                <button type="button" className="icon-button results-move" disabled={i === 0} onClick={() => props.onMove(c.id, -1)} aria-label={t('RESULTS_MOVE_LEFT', { name: c.title })}>
                  ↑
                </button>
                <button type="button" className="icon-button results-move" disabled={i === cols.length - 1} onClick={() => props.onMove(c.id, 1)} aria-label={t('RESULTS_MOVE_RIGHT', { name: c.title })}>
                  ↓
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
