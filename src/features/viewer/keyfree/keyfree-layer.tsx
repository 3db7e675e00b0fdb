/**
 * The recognised words of a page as buttons over it (a layer of page-overlay.ts), placed by their
 * fractions of the page so they fit any zoom. Each is a button named by its word: Tab walks them in
 * reading order, Enter or a tap picks one. Small words keep their size on screen; on touch screens
 * an invisible margin around each makes it easier to hit (viewer.css .keyfree-word::after).
 */
import { useTranslation } from 'react-i18next';
import type { KeyFreeWord } from '../../../api/words';
import { LOW_CONFIDENCE } from '../../../fields/codes';
import './keyfree.css';

const pct = (f: number) => `${(f * 100).toFixed(3)}%`;

export function KeyFreeLayer(props: { page: number; words: readonly KeyFreeWord[]; onPick: (w: KeyFreeWord) => void }) {
  const { t } = useTranslation();
  return (
    <div className="keyfree-layer" role="group" aria-label={t('KEYFREE_WORDS_OF_PAGE', { page: props.page })} data-testid="keyfree-layer">
      {props.words.map((w, i) => (
        <button
          key={i}
          type="button"
          className="keyfree-word"
          data-low-confidence={w.Confidence < LOW_CONFIDENCE || undefined}
          data-line={w.Line}
          style={{ left: pct(w.Left), top: pct(w.Top), width: pct(w.Width), height: pct(w.Height) }}
          aria-label={w.Value}
          title={w.Value}
          onClick={() => props.onPick(w)}
        />
      ))}
    </div>
  );
}
