import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FIELD_PROPS, type Field } from '../../../api/archives';
import { getDynamicList, getListItems } from '../../../api/list-calls';

/**
 * One index value of the send-to-archive panel: a fixed list (Prop 64) is a select of its items, a
 * type-ahead list offers its items as suggestions, a dynamic list (Prop 128) those its two parent
 * fields' values allow (read from `values`), anything else a text box. Every value is still checked
 * by the field rules (send-to-archive-modal.tsx) and by the server.
 */
export function SendFieldInput(props: {
  id: string;
  db: number;
  field: Field;
  value: string;
  values: Readonly<Record<number, string>>;
  invalid: boolean;
  describedBy?: string;
  onChange: (v: string) => void;
}) {
  const { t } = useTranslation();
  const listId = useId();
  const f = props.field;
  const prop = f.Prop ?? 0;
  const dynamic = (prop & FIELD_PROPS.dynamicDropdown) !== 0;
  const fixed = (prop & FIELD_PROPS.dropdownList) !== 0;
  const hasList = (f.List ?? 0) > 0;
  const filter1 = f.ListF1 ? (props.values[f.ListF1] ?? '') : '';
  const filter2 = f.ListF2 ? (props.values[f.ListF2] ?? '') : '';
  const items = useQuery({
    queryKey: ['inbox-send-list', props.db, f.ID, dynamic ? filter1 : '', dynamic ? filter2 : ''],
    queryFn: ({ signal }) => (dynamic ? getDynamicList({ dbId: props.db, fieldId: f.ID, filter1, filter2 }, signal) : getListItems(props.db, f.List!, '', signal)),
    enabled: hasList,
    staleTime: 5 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
  const common = {
    id: props.id,
    'aria-invalid': props.invalid || undefined,
    'aria-describedby': props.describedBy,
  };
  if (hasList && fixed && !dynamic && items.data) {
    return (
      <select {...common} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{t('INBOX_NO_VALUE')}</option>
        {items.data.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    );
  }
  return (
    <>
      <input
        {...common}
        value={props.value}
        list={hasList && items.data ? listId : undefined}
        maxLength={f.Size && f.Size > 0 ? f.Size : undefined}
        inputMode={f.Type === 2 ? 'numeric' : f.Type === 4 ? 'decimal' : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {hasList && items.data && (
        <datalist id={listId}>
          {items.data.slice(0, 1000).map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      )}
    </>
  );
}
