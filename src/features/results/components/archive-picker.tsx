import { useTranslation } from 'react-i18next';
import { archiveChoices, type ArchiveChoice } from '../archive-choices';

/** The archives of a multi-archive search with their counts; choosing one switches the grid. */
export function ArchivePicker(props: {
  archives: readonly ArchiveChoice[];
  current: number;
  sortByCount: boolean;
  hideEmpty: boolean;
  onChange: (archiveId: number) => void;
}) {
  const { t } = useTranslation();
  const list = archiveChoices(props.archives, { sortByCount: props.sortByCount, hideEmpty: props.hideEmpty, keep: props.current });
  return (
    <label className="results-archive">
      <span>{t('RESULTS_ARCHIVE')}</span>
      <select value={props.current} onChange={(e) => props.onChange(Number(e.target.value))}>
        {list.map((a) => (
          <option key={a.id} value={a.id}>
            {a.count === null ? a.name : t('RESULTS_ARCHIVE_COUNT', { name: a.name, count: a.count })}
          </option>
        ))}
      </select>
    </label>
  );
}
