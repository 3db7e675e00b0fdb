import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionScope } from '../../../../session/session';
import { useSession } from '../../../../session/use-session';
import { useCatalogueFields, useCatalogueLists, useCatalogueTableFields } from '../../api/catalogue';
import type { ModeProps } from '../../mode-props';
import { catalogueErrorText } from './catalogue-ui';
import { FieldsTab } from './fields-tab';
import { ListsTab } from './lists-tab';
import { TableFieldsTab } from './table-fields-tab';
import './field-catalog.css';

const TABS = ['FIELDS', 'TABLE_FIELDS', 'LISTS'] as const;
type Tab = (typeof TABS)[number];

/**
 * FIELD_CATALOG (the console spec §2): tabs FIELDS, TABLE_FIELDS and LISTS of the selected
 * database, each a list beside (or, on a narrow screen, above) the chosen item, edited in a modal
 * on a copy. Arrow keys move between the tabs (WAI-ARIA tabs pattern).
 */
export default function FieldCatalogMode(props: ModeProps) {
  const { t } = useTranslation();
  const scope = sessionScope(useSession());
  const id = useId();
  const [tab, setTab] = useState<Tab>('FIELDS');
  const fields = useCatalogueFields(scope, props.dbId);
  const tableFields = useCatalogueTableFields(scope, props.dbId);
  const lists = useCatalogueLists(scope, props.dbId);

  if (props.dbId === null) return <p className="hint">{t('ADMIN_CHOOSE_DATABASE')}</p>;
  const failed = fields.error ?? tableFields.error ?? lists.error;
  const onKey = (e: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    const next = e.key === 'ArrowRight' ? TABS[(i + 1) % TABS.length] : e.key === 'ArrowLeft' ? TABS[(i + TABS.length - 1) % TABS.length] : null;
    if (!next) return;
    e.preventDefault();
    setTab(next);
    document.getElementById(`${id}-${next}`)?.focus();
  };
  const common = { scope, dbId: props.dbId, registerAdd: props.registerAdd, onDirtyChange: props.onDirtyChange };

  return (
    <div className="catalogue">
      <div role="tablist" aria-label={t('ADMIN_MODE_FIELD_CATALOG')} className="catalogue-tabs" onKeyDown={onKey}>
        {TABS.map((x) => (
          <button
            key={x}
            id={`${id}-${x}`}
            type="button"
            role="tab"
            aria-selected={tab === x}
            aria-controls={`${id}-panel`}
            tabIndex={tab === x ? 0 : -1}
            className="catalogue-tab"
            onClick={() => setTab(x)}
          >
            {t(`CATALOGUE_TAB_${x}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${tab}`} className="catalogue-panel">
        {failed ? (
          <p className="form-error" role="alert">
            {catalogueErrorText(t, failed)}
          </p>
        ) : !fields.data || !tableFields.data || !lists.data ? (
          <p className="hint">{t('MESSAGE_LOADING')}</p>
        ) : tab === 'FIELDS' ? (
          <FieldsTab {...common} fields={fields.data} lists={lists.data} />
        ) : tab === 'TABLE_FIELDS' ? (
          <TableFieldsTab {...common} tableFields={tableFields.data} fields={fields.data} />
        ) : (
          <ListsTab {...common} lists={lists.data} fields={fields.data} />
        )}
      </div>
    </div>
  );
}
