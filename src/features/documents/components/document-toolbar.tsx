import { useTranslation } from 'react-i18next';
import type { DocumentOperation } from '../../../api/documents';
import type { BlockedReason } from '../document-rules';
import type { ToolbarAction } from '../use-merge-actions';

const LABELS: Record<DocumentOperation, 'DOCUMENTS_COPY' | 'DOCUMENTS_MOVE' | 'DOCUMENTS_DELETE'> = { Copy: 'DOCUMENTS_COPY', Move: 'DOCUMENTS_MOVE', delete: 'DOCUMENTS_DELETE' };
const OPS: readonly DocumentOperation[] = ['Copy', 'Move', 'delete'];

/**
 * Copy, Move and Delete for the selected documents, then the actions of other parts (`more`: merge, append). A button the user may not use stays focusable
 * (aria-disabled, not disabled) and says why, so a keyboard or screen-reader user learns it too.
 */
export function DocumentToolbar(props: { blocked: (op: DocumentOperation) => BlockedReason; onAction: (op: DocumentOperation) => void; more?: readonly ToolbarAction[] }) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={t('DOCUMENTS_ACTIONS')} className="documents-toolbar">
      {OPS.map((op) => {
        const reason = props.blocked(op);
        const why = reason ? t(reason) : undefined;
        return (
          <button
            key={op}
            type="button"
            className="button"
            aria-disabled={reason ? true : undefined}
            title={why}
            aria-description={why}
            onClick={() => props.onAction(op)}
          >
            {t(LABELS[op])}
          </button>
        );
      })}
      {props.more?.map((a) => {
        const why = a.blocked ? t(a.blocked) : undefined;
        return (
          <button key={a.key} type="button" className="button" aria-disabled={a.blocked ? true : undefined} title={why} aria-description={why} onClick={a.onClick}>
            {a.label}
          </button>
        );
      })}
    </div>
  );
}
