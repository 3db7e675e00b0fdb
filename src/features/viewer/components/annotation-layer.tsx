/**
 * The annotations of the shown page, drawn over it (page-overlay.ts) at the page's drawn size: notes
 * on a pale yellow card, stamps as red-outlined read-only text (Arial; the font size a fraction of the
 * page's width, so it scales with zoom). While the user is placing a note or stamp, a tap or click on
 * the page places it there (a note asks for its text first). The user's own annotations can be
 * selected, dragged (mouse, pen, touch) or moved with the arrow keys, and removed (Delete key, or the
 * Remove button shown beside the selected one); others' are shown only.
 */
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ANNOTATION_LINE_HEIGHT, ANNOTATION_PADDING, STAMP_FONT_FAMILY, type Annotation } from '../../../api/annotations';
import type { PageOverlayProps } from '../page-overlay';
import { movedBy } from '../annotations/annotation-model';
import type { AnnotationsState } from '../annotations/use-annotations';
import '../annotations/annotations.css';

const KEY_STEP = 0.01;

export function AnnotationLayer(props: PageOverlayProps & { state: AnnotationsState }) {
  const { t } = useTranslation();
  const { pageNo, width, height, state } = props;
  const layerRef = useRef<HTMLDivElement>(null);
  const [draft, setDraft] = useState<{ x: number; y: number; text: string } | null>(null);
  const [drag, setDrag] = useState<{ id: string; startX: number; startY: number; dx: number; dy: number } | null>(null);
  const placing = state.mode !== null && state.annotateWhy === null;
  const aspect = width > 0 ? height / width : 1.3;
  const shown = state.annotations.filter((a) => a.Page === pageNo);

  const fraction = (e: PointerEvent) => {
    const r = layerRef.current!.getBoundingClientRect();
    return { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height };
  };
  const place = (at: { x: number; y: number }) => {
    if (state.mode?.kind === 'stamp') void state.placeStamp(at, pageNo, aspect);
    else setDraft({ ...at, text: '' });
  };
  const onLayerPointer = (e: PointerEvent<HTMLDivElement>) => {
    if (placing && e.target === layerRef.current) place(fraction(e));
  };
  // By keyboard: Enter on the page places it near the top left; the arrow keys then move it.
  const onLayerKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!placing || e.target !== layerRef.current || (e.key !== 'Enter' && e.key !== ' ')) return;
    e.preventDefault();
    place({ x: 0.05, y: 0.05 });
  };

  const styleOf = (a: Annotation) => {
    const moving = drag?.id === a.Id ? movedBy(a, drag.dx / width, drag.dy / height) : { X: a.X, Y: a.Y };
    const fs = a.FontSize * width;
    return {
      left: `${moving.X * width}px`,
      top: `${moving.Y * height}px`,
      width: `${a.Width * width}px`,
      height: `${a.Height * height}px`,
      fontSize: `${fs}px`,
      padding: `${fs * ANNOTATION_PADDING}px`,
      lineHeight: ANNOTATION_LINE_HEIGHT,
      fontFamily: `${STAMP_FONT_FAMILY}, Helvetica, sans-serif`,
      borderWidth: `${Math.max(1, fs * 0.06)}px`,
      color: a.Kind === 'stamp' ? undefined : a.Color,
    };
  };
  const label = (a: Annotation) => t(a.Kind === 'stamp' ? 'ANNOTATION_STAMP_LABEL' : 'ANNOTATION_NOTE_LABEL', { text: a.Text, user: a.CreatedBy ?? '' });
  const canChange = (a: Annotation) => a.Mine && state.annotateWhy === null;

  const onKey = (a: Annotation, e: KeyboardEvent) => {
    const step = e.shiftKey ? KEY_STEP * 5 : KEY_STEP;
    const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    if (d) {
      e.preventDefault();
      state.move(a, movedBy(a, d[0]!, d[1]!));
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      state.remove(a);
    } else if (e.key === 'Escape') state.setSelected(null);
  };

  return (
    <div
      ref={layerRef}
      className="annotation-layer"
      data-placing={placing || undefined}
      data-testid="annotation-layer"
      onPointerDown={onLayerPointer}
      onKeyDown={onLayerKey}
      tabIndex={placing ? 0 : undefined}
      role={placing ? 'button' : undefined}
      aria-label={placing ? t(state.mode?.kind === 'stamp' ? 'ANNOTATION_PLACE_STAMP_HINT' : 'ANNOTATION_PLACE_NOTE_HINT') : undefined}
    >
      {shown.map((a) => {
        const mine = canChange(a);
        const className = `annotation annotation-${a.Kind}${mine ? ' annotation-mine' : ''}${state.selected === a.Id ? ' annotation-selected' : ''}`;
        if (!mine) {
          return (
            <div key={a.Id} className={className} style={styleOf(a)} role="note" aria-label={label(a)} data-annotation-id={a.Id}>
              {a.Kind !== 'highlight' && a.Text}
            </div>
          );
        }
        return (
          <div key={a.Id} className="annotation-holder">
            <div
              className={className}
              style={styleOf(a)}
              role="button"
              tabIndex={0}
              aria-pressed={state.selected === a.Id}
              aria-label={label(a)}
              aria-keyshortcuts="ArrowLeft ArrowRight ArrowUp ArrowDown Delete"
              data-annotation-id={a.Id}
              onFocus={() => state.setSelected(a.Id)}
              onKeyDown={(e) => onKey(a, e)}
              onPointerDown={(e) => {
                e.stopPropagation();
                state.setSelected(a.Id);
                e.currentTarget.setPointerCapture(e.pointerId);
                setDrag({ id: a.Id, startX: e.clientX, startY: e.clientY, dx: 0, dy: 0 });
              }}
              onPointerMove={(e) => {
                if (drag?.id === a.Id) setDrag({ ...drag, dx: e.clientX - drag.startX, dy: e.clientY - drag.startY });
              }}
              onPointerUp={() => {
                if (drag?.id === a.Id && Math.hypot(drag.dx, drag.dy) > 3) state.move(a, movedBy(a, drag.dx / width, drag.dy / height));
                setDrag(null);
              }}
              onPointerCancel={() => setDrag(null)}
            >
              {a.Kind !== 'highlight' && a.Text}
            </div>
            {state.selected === a.Id && drag === null && (
              <button
                type="button"
                className="button annotation-remove"
                style={{ left: `${a.X * width}px`, top: `${(a.Y + a.Height) * height + 4}px` }}
                onPointerDown={(e) => e.stopPropagation()}
                onClick={() => state.remove(a)}
              >
                {t('ANNOTATION_REMOVE')}
              </button>
            )}
          </div>
        );
      })}
      {draft && (
        <form
          className="annotation-draft"
          style={{ left: `${Math.min(draft.x, 0.6) * width}px`, top: `${Math.min(draft.y, 0.8) * height}px` }}
          onPointerDown={(e) => e.stopPropagation()}
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.text.trim()) state.addNote({ x: draft.x, y: draft.y }, pageNo, aspect, draft.text.trim());
            setDraft(null);
          }}
        >
          <textarea
            aria-label={t('ANNOTATION_NOTE_TEXT')}
            value={draft.text}
            maxLength={2000}
            rows={3}
            autoFocus
            onChange={(e) => setDraft({ ...draft, text: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setDraft(null);
            }}
          />
          <div className="annotation-draft-actions">
            <button type="submit" className="button button-primary" disabled={!draft.text.trim()}>
              {t('ANNOTATION_SAVE_NOTE')}
            </button>
            <button type="button" className="button" onClick={() => setDraft(null)}>
              {t('ANNOTATION_CANCEL')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
