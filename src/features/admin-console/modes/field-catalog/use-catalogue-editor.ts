import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../../ui/notifications';
import { catalogueErrorText } from './catalogue-ui';

/**
 * What each tab of the catalogue does with one kind of item: which one is shown, the editor (open
 * for a new item or a saved one; the shell hears of unsaved work while it is open), the delete
 * confirmation, and a failed call's words (in the editor while it is open, else a notification).
 */
export function useCatalogueEditor<T extends { id: number; name: string }>(onDirtyChange: (dirty: boolean) => void) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<number | null>(null);
  const [editing, setEditing] = useState<{ item: T | null } | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = editing !== null;
  useEffect(() => {
    onDirtyChange(open);
    return () => onDirtyChange(false);
  }, [open, onDirtyChange]);

  return {
    selected,
    setSelected,
    editing,
    edit: (item: T | null) => {
      setError(null);
      setEditing({ item });
    },
    close: () => setEditing(null),
    error,
    /** Runs a save; on success the editor closes and the saved item is shown. */
    save: async (run: () => Promise<{ id: number }>) => {
      setError(null);
      try {
        const saved = await run();
        setEditing(null);
        setSelected(saved.id);
        notify('success', t('CATALOGUE_SAVED'));
      } catch (e) {
        setError(catalogueErrorText(t, e));
      }
    },
    deleting,
    askDelete: setDeleting,
    busy,
    remove: async (run: () => Promise<unknown>) => {
      setBusy(true);
      try {
        await run();
        setDeleting(null);
        setSelected(null);
        notify('success', t('CATALOGUE_DELETED'));
      } catch (e) {
        setDeleting(null);
        notify('error', catalogueErrorText(t, e));
      } finally {
        setBusy(false);
      }
    },
  };
}
