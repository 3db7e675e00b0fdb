import { useTranslation } from 'react-i18next';

export interface TabItem {
  ID: number;
  Label: string;
  Color?: string | null;
}

/** View tabs of a search (Props 32): one button per tab; the current one is pressed. */
export function ViewTabs(props: { tabs: readonly TabItem[]; current: number | null; onChange: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <div className="results-tabs" role="group" aria-label={t('RESULTS_VIEW_TABS')}>
      {props.tabs.map((tab) => (
        <button
          key={tab.ID}
          type="button"
          className={`button results-tab${tab.ID === props.current ? ' results-tab-current' : ''}`}
          aria-pressed={tab.ID === props.current}
          style={tab.Color ? { borderBottomColor: tab.Color } : undefined}
          onClick={() => props.onChange(tab.ID)}
        >
          {tab.Label}
        </button>
      ))}
    </div>
  );
}
