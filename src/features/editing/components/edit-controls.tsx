/**
 * The editing part of the results toolbar: the Edit toggle (aria-pressed), Save, Cancel, "Edit row"
 * (the side panel), the unsaved-rows count, and the alerts: save failure (UNABLE_TO_SAVE_ALL_ROWS_MSG,
 * with the choice to discard the invalid entries), the warning before Cancel discards invalid entries,
 * the question before the edit panel closes with unsaved changes, and the table-field dialog a table
 * cell of the grid opens.
 */
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';
import { NARROW_SCREEN, useMediaQuery } from '../../../ui/use-media-query';
import type { IndexEditingState as GridEditingState } from '../use-index-editing';
import { TableDialog, tableName } from './table-editor';
import '../editing.css';

export function EditControls({ e, inSheet = false }: { e: GridEditingState; inSheet?: boolean }) {
  const { t } = useTranslation();
  // While the edit panel is a sheet over the screen, the controls are in the sheet (edit-panel.tsx).
  const sheet = useMediaQuery(NARROW_SCREEN);
  if (!e.canToggle || (!inSheet && sheet && e.panelDoc)) return null;
  return (
    <div className="edit-controls" role="group" aria-label={t('EDIT_CONTROLS')}>
      <button type="button" className="button" aria-pressed={e.editMode} disabled={e.saving} onClick={() => void e.toggle()}>
        {t('EDIT_TOGGLE')}
      </button>
      {e.editMode && (
        <>
          <SaveCancel e={e} />
          <button type="button" className="button" disabled={!e.activeRowEditable} onClick={e.openPanel} aria-controls="edit-panel">
            {t('EDIT_ROW')}
          </button>
          {/* Table fields: rows are added and removed here (typing in a cell keeps the rows aligned). */}
          {[...new Set(e.fields.map((f) => f.Parent ?? 0).filter((p) => p > 0))].map((parent) => (
            <button key={parent} type="button" className="button edit-table-open" disabled={!e.activeRowEditable || e.activeDocId === null} onClick={() => e.activeDocId !== null && e.openTable(e.activeDocId, parent)}>
              {/* The label gives way (ellipsis) so the controls stay one row; the button's name is still all of it. */}
              <span className="edit-shrink-label">{t('EDIT_TABLE_OPEN', { table: tableName(e.tableColumns(parent)) })}</span>
            </button>
          ))}
          <span className="edit-status" role="status" data-testid="edit-status">
            {e.dirtyCount > 0 ? t('EDIT_UNSAVED_ROWS', { count: e.dirtyCount }) : ''}
            {e.invalidCount > 0 ? ` ${t('EDIT_INVALID_ENTRIES', { count: e.invalidCount })}` : ''}
          </span>
        </>
      )}
    </div>
  );
}

/** Save (one outbox entry per dirty document) and Cancel, enabled while something is unsaved. */
export function SaveCancel({ e }: { e: GridEditingState }) {
  const { t } = useTranslation();
  return (
    <>
      <button type="button" className="button button-primary" disabled={e.dirtyCount === 0 || e.saving} onClick={() => void e.save()}>
        {t('EDIT_SAVE')}
      </button>
      <button type="button" className="button" disabled={e.dirtyCount === 0 || e.saving} onClick={e.cancel}>
        {t('EDIT_CANCEL')}
      </button>
    </>
  );
}

export function EditAlerts({ e }: { e: GridEditingState }) {
  const { t } = useTranslation();
  const a = e.alert;
  return (
    <>
      {a?.kind === 'unsaved' && (
        <div className="edit-alert" role="alert">
          <p>{t('UNABLE_TO_SAVE_ALL_ROWS_MSG')}</p>
          {a.invalid > 0 && <p>{t('EDIT_INVALID_NOT_SAVED', { count: a.invalid })}</p>}
          <div className="edit-alert-actions">
            {a.invalid > 0 && (
              <button type="button" className="button" onClick={e.discardInvalid}>
                {t('EDIT_DISCARD_INVALID')}
              </button>
            )}
            <button type="button" className="button" onClick={e.dismissAlert}>
              {t('EDIT_KEEP_EDITING')}
            </button>
          </div>
        </div>
      )}
      <DiscardQuestion
        open={a?.kind === 'confirm-cancel'}
        title={t('EDIT_DISCARD_TITLE')}
        text={t('EDIT_DISCARD_WARNING', { count: a?.kind === 'confirm-cancel' ? a.invalid : 0 })}
        onDiscard={e.discardAll}
        onKeep={e.dismissAlert}
      />
      {/* Close editing with unsaved changes (the panel's text not yet judged included). */}
      <DiscardQuestion
        open={a?.kind === 'confirm-close'}
        title={t('EDIT_CLOSE_UNSAVED_TITLE')}
        text={t('EDIT_CLOSE_UNSAVED')}
        saving={e.saving}
        onSave={() => void e.saveAndClosePanel()}
        onDiscard={e.discardAndClosePanel}
        onKeep={e.dismissAlert}
      />
      <TableDialog e={e} />
    </>
  );
}

/** Asks before unsaved changes are dropped: discard them or keep editing, and save them where that is offered (the primary action then). */
function DiscardQuestion(p: { open: boolean; title: string; text: string; saving?: boolean; onSave?: () => void; onDiscard: () => void; onKeep: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={p.open} title={p.title} onClose={p.onKeep}>
      <p>{p.text}</p>
      <div className="modal-actions">
        {p.onSave && (
          <button type="button" className="button button-primary" disabled={p.saving} onClick={p.onSave}>
            {t('EDIT_SAVE')}
          </button>
        )}
        <button type="button" className={p.onSave ? 'button' : 'button button-primary'} onClick={p.onDiscard}>
          {t('EDIT_DISCARD_CHANGES')}
        </button>
        <button type="button" className="button" onClick={p.onKeep}>
          {t('EDIT_KEEP_EDITING')}
        </button>
      </div>
    </Modal>
  );
}
