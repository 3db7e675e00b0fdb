/**
 * The viewer's second row of tools: turn the page left or right (the server rewrites the file), add a
 * note, and the Stamp menu (the stamps of GET admin/stamps, alphabetical). A control that cannot be
 * used is disabled and says why beside it (no right, read-only licence, offline for a rotation).
 */
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDismiss } from '../../../ui/use-dismiss';
import type { AnnotationsState } from '../annotations/use-annotations';
import '../annotations/annotations.css';

export function AnnotationTools({ state }: { state: AnnotationsState }) {
  const { t } = useTranslation();
  const base = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  useDismiss(menuRef, menuOpen, () => setMenuOpen(false));
  const rotateWhy = state.rotateWhy;
  const annotateWhy = state.annotateWhy;
  const rotateWhyId = `${base}-rotate-why`;
  const annotateWhyId = `${base}-annotate-why`;
  const rotateOff = rotateWhy !== null || state.rotating;
  const mode = state.mode;

  return (
    <div className="annotation-tools" role="group" aria-label={t('ANNOTATION_TOOLS')}>
      <div className="viewer-group">
        <button type="button" className="button" disabled={rotateOff} aria-describedby={rotateWhy ? rotateWhyId : undefined} onClick={() => void state.rotate(270)}>
          <span aria-hidden="true">↺</span> {t('VIEWER_ROTATE_LEFT')}
        </button>
        <button type="button" className="button" disabled={rotateOff} aria-describedby={rotateWhy ? rotateWhyId : undefined} onClick={() => void state.rotate(90)}>
          <span aria-hidden="true">↻</span> {t('VIEWER_ROTATE_RIGHT')}
        </button>
        {rotateWhy && (
          <span id={rotateWhyId} className="annotation-why">
            {t(rotateWhy)}
          </span>
        )}
      </div>
      <div className="viewer-group">
        <button
          type="button"
          className="button"
          disabled={annotateWhy !== null}
          aria-describedby={annotateWhy ? annotateWhyId : undefined}
          aria-pressed={mode?.kind === 'note'}
          onClick={() => state.setMode(mode?.kind === 'note' ? null : { kind: 'note' })}
        >
          {t('ANNOTATION_ADD_NOTE')}
        </button>
        <div ref={menuRef} className="viewer-group">
          <button
            type="button"
            className="button"
            disabled={annotateWhy !== null}
            aria-describedby={annotateWhy ? annotateWhyId : undefined}
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            aria-pressed={mode?.kind === 'stamp'}
            onClick={() => setMenuOpen((o) => !o)}
          >
            {t('ANNOTATION_STAMP')} <span aria-hidden="true">▾</span>
          </button>
          {menuOpen && (
            <ul className="stamp-menu" role="menu" aria-label={t('ANNOTATION_STAMPS')}>
              {state.stamps === null && (
                <li role="none">
                  <span className="annotation-why">{t(state.stampsFailed ? 'ANNOTATION_STAMPS_FAILED' : 'MESSAGE_LOADING')}</span>
                </li>
              )}
              {state.stamps?.length === 0 && (
                <li role="none">
                  <span className="annotation-why">{t('ANNOTATION_NO_STAMPS')}</span>
                </li>
              )}
              {state.stamps?.map((s) => (
                <li key={s.Id ?? s.Text} role="none">
                  <button
                    type="button"
                    role="menuitem"
                    onClick={() => {
                      state.setMode({ kind: 'stamp', template: s.Text });
                      setMenuOpen(false);
                    }}
                  >
                    {s.Text}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        {annotateWhy && (
          <span id={annotateWhyId} className="annotation-why">
            {t(annotateWhy)}
          </span>
        )}
      </div>
      {mode && annotateWhy === null && (
        <div className="viewer-group" role="status">
          <span>{t(mode.kind === 'stamp' ? 'ANNOTATION_PLACE_STAMP_HINT' : 'ANNOTATION_PLACE_NOTE_HINT')}</span>
          <button type="button" className="button" onClick={() => state.setMode(null)}>
            {t('ANNOTATION_CANCEL')}
          </button>
        </div>
      )}
      {state.message && (
        <p className="annotation-message" role="status">
          {state.message}
        </p>
      )}
    </div>
  );
}
