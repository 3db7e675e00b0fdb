import { useTranslation } from 'react-i18next';
import type { DocumentOperation } from '../../../api/documents';
import type { BlockedReason } from '../document-rules';
import type { ToolbarAction } from '../use-merge-actions';
import { ReasonedButton } from '../../../ui/reasoned-button';

const LABELS: Record<DocumentOperation, 'DOCUMENTS_COPY' | 'DOCUMENTS_MOVE' | 'DOCUMENTS_DELETE'> = { Copy: 'DOCUMENTS_COPY', Move: 'DOCUMENTS_MOVE', delete: 'DOCUMENTS_DELETE' };
const OPS: readonly DocumentOperation[] = ['Copy', 'Move', 'delete'];

/**
 * Copy, Move and Delete for the selected documents, then the actions of other parts (`more`: merge,
 * append). A button the user may not use says why, on a tap too (ui/reasoned-button.tsx).
 */
export function DocumentToolbar(props: { blocked: (op: DocumentOperation) => BlockedReason; onAction: (op: DocumentOperation) => void; more?: readonly ToolbarAction[] }) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={t('DOCUMENTS_ACTIONS')} className="documents-toolbar">
      {OPS.map((op) => {
        const reason = props.blocked(op);
        return (
          <ReasonedButton key={op} reason={reason ? t(reason) : null} onClick={() => props.onAction(op)}>
            {t(LABELS[op])}
          </ReasonedButton>
        );
      })}
      {props.more?.map((a) => (
        <ReasonedButton key={a.key} reason={a.blocked ? t(a.blocked) : null} onClick={a.onClick}>
          {a.label}
        </ReasonedButton>
      ))}
    </div>
  );
}
