import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LIST_BINDING_TYPES, LIST_KINDS } from '../../../../api/admin-catalogue';
import { FIELD_TYPE_NAMES, SYSTEM_FIELDS, forcesPlainField } from '../../../../fields/catalogue-rules';
import type { ConsoleField, ConsoleList } from '../../api/catalogue';
import { FieldPicker, problemText } from './catalogue-ui';
import { changeDraft, draftRegexProblem, type FieldDraft, type LiveFieldDraft } from './field-draft';

const LIVE_KEYS: Exclude<keyof LiveFieldDraft, 'method'>[] = ['url', 'headers', 'jsonPath', 'script', 'body'];
const LIVE_LABELS = {
  url: 'CATALOGUE_LIVE_URL',
  headers: 'CATALOGUE_LIVE_HEADERS',
  jsonPath: 'CATALOGUE_LIVE_JSON_PATH',
  script: 'CATALOGUE_LIVE_SCRIPT',
  body: 'CATALOGUE_LIVE_BODY',
} as const;
const MULTILINE = new Set<keyof LiveFieldDraft>(['headers', 'script', 'body']);

/**
 * The form of a field (the console spec §3 Field): general settings, validation (the RegEx's
 * message and pattern, stored as `(?#message)pattern`), live field and list binding. Every change
 * goes through changeDraft: a new type clears the RegEx settings, a system field other than
 * readOnly turns multi-value and required off (their boxes are then disabled).
 */
export function FieldEditor(props: { draft: FieldDraft; onChange: (d: FieldDraft) => void; self: number | null; fields: readonly ConsoleField[]; lists: readonly ConsoleList[] }) {
  const { t } = useTranslation();
  const id = useId();
  const d = props.draft;
  const set = (patch: Partial<FieldDraft>) => props.onChange(changeDraft(d, patch));
  const plain = forcesPlainField(d.systemField);
  const others = props.fields.filter((f) => f.id !== props.self).map((f) => ({ id: f.id, name: f.name }));
  const valueLists = props.lists.filter((l) => l.kind !== LIST_KINDS.dynamic);
  const boundLists = d.listType === 'dynamic' ? props.lists : valueLists;
  const fieldId = (k: string) => `${id}-${k}`;
  const regexProblem = problemText(t, draftRegexProblem(d));

  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={fieldId('name')}>
          {t('CATALOGUE_NAME')}
        </label>
        <input id={fieldId('name')} value={d.name} maxLength={200} required onChange={(e) => set({ name: e.target.value })} />
      </div>
      <div className="catalogue-grid">
        <div className="field">
          <label className="field-label" htmlFor={fieldId('type')}>
            {t('CATALOGUE_TYPE')}
          </label>
          <select id={fieldId('type')} value={d.type} onChange={(e) => set({ type: e.target.value as FieldDraft['type'] })}>
            {FIELD_TYPE_NAMES.map((n) => (
              <option key={n} value={n}>
                {t(`CATALOGUE_TYPE_${n}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={fieldId('length')}>
            {t('CATALOGUE_LENGTH')}
          </label>
          <input id={fieldId('length')} type="number" inputMode="numeric" min={1} max={4000} value={d.length} onChange={(e) => set({ length: Number(e.target.value) })} />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={fieldId('format')}>
            {t('CATALOGUE_FORMAT')}
          </label>
          <input id={fieldId('format')} value={d.format} maxLength={100} aria-describedby={fieldId('format-hint')} onChange={(e) => set({ format: e.target.value })} />
          <p id={fieldId('format-hint')} className="hint">
            {t('CATALOGUE_FORMAT_HINT')}
          </p>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={fieldId('system')}>
            {t('CATALOGUE_SYSTEM_FIELD')}
          </label>
          <select id={fieldId('system')} value={d.systemField} onChange={(e) => set({ systemField: e.target.value as FieldDraft['systemField'] })}>
            <option value="">{t('CATALOGUE_SYSTEM_NONE')}</option>
            {SYSTEM_FIELDS.map((s) => (
              <option key={s} value={s}>
                {t(`CATALOGUE_SYSTEM_${s}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="admin-row">
        <label className="check catalogue-check">
          <input type="checkbox" checked={d.multiValue} disabled={plain} onChange={(e) => set({ multiValue: e.target.checked })} />
          {t('CATALOGUE_MULTI_VALUE')}
        </label>
        <label className="check catalogue-check">
          <input type="checkbox" checked={d.required} disabled={plain} onChange={(e) => set({ required: e.target.checked })} />
          {t('CATALOGUE_REQUIRED')}
        </label>
      </div>
      {plain && <p className="hint">{t('CATALOGUE_SYSTEM_FIELD_HINT')}</p>}

      <fieldset className="admin-section catalogue-fieldset">
        <legend>{t('CATALOGUE_VALIDATION')}</legend>
        <div className="field">
          <label className="field-label" htmlFor={fieldId('pattern')}>
            {t('CATALOGUE_REGEX')}
          </label>
          <input
            id={fieldId('pattern')}
            value={d.regexPattern}
            spellCheck={false}
            aria-invalid={regexProblem !== null}
            aria-describedby={regexProblem ? fieldId('pattern-problem') : undefined}
            onChange={(e) => set({ regexPattern: e.target.value })}
          />
          {/* Said here as it is typed: the form's own message is at its foot, out of sight in a long form. */}
          {regexProblem && (
            <p id={fieldId('pattern-problem')} className="form-error">
              {regexProblem}
            </p>
          )}
        </div>
        <div className="field">
          <label className="field-label" htmlFor={fieldId('message')}>
            {t('CATALOGUE_REGEX_MESSAGE')}
          </label>
          <input id={fieldId('message')} value={d.regexMessage} aria-describedby={fieldId('message-hint')} onChange={(e) => set({ regexMessage: e.target.value })} />
          <p id={fieldId('message-hint')} className="hint">
            {t('CATALOGUE_REGEX_MESSAGE_HINT')}
          </p>
        </div>
        <label className="check catalogue-check">
          <input type="checkbox" checked={d.useRegExValidation} onChange={(e) => set({ useRegExValidation: e.target.checked })} />
          {t('CATALOGUE_USE_REGEX')}
        </label>
      </fieldset>

      <fieldset className="admin-section catalogue-fieldset">
        <legend>{t('CATALOGUE_LIVE_FIELD')}</legend>
        <label className="check catalogue-check">
          <input type="checkbox" checked={d.live} onChange={(e) => set({ live: e.target.checked })} />
          {t('CATALOGUE_LIVE_ENABLED')}
        </label>
        {d.live && (
          <>
            <div className="field">
              <label className="field-label" htmlFor={fieldId('live-method')}>
                {t('CATALOGUE_LIVE_METHOD')}
              </label>
              <select id={fieldId('live-method')} value={d.liveField.method} onChange={(e) => set({ liveField: { ...d.liveField, method: e.target.value } })}>
                {['GET', 'POST', 'PUT'].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </div>
            {LIVE_KEYS.map((k) => (
              <div className="field" key={k}>
                <label className="field-label" htmlFor={fieldId(`live-${k}`)}>
                  {t(LIVE_LABELS[k])}
                </label>
                {MULTILINE.has(k) ? (
                  <textarea id={fieldId(`live-${k}`)} value={d.liveField[k]} spellCheck={false} onChange={(e) => set({ liveField: { ...d.liveField, [k]: e.target.value } })} />
                ) : (
                  <input id={fieldId(`live-${k}`)} value={d.liveField[k]} spellCheck={false} onChange={(e) => set({ liveField: { ...d.liveField, [k]: e.target.value } })} />
                )}
              </div>
            ))}
          </>
        )}
      </fieldset>

      <fieldset className="admin-section catalogue-fieldset">
        <legend>{t('CATALOGUE_LIST_BINDING')}</legend>
        <div className="catalogue-grid">
          <div className="field">
            <label className="field-label" htmlFor={fieldId('list-type')}>
              {t('CATALOGUE_LIST_TYPE')}
            </label>
            <select id={fieldId('list-type')} value={d.listType} onChange={(e) => set({ listType: e.target.value as FieldDraft['listType'] })}>
              <option value="">{t('CATALOGUE_LIST_NONE')}</option>
              {LIST_BINDING_TYPES.map((b) => (
                <option key={b} value={b}>
                  {t(`CATALOGUE_LIST_${b.toUpperCase() as Uppercase<typeof b>}`)}
                </option>
              ))}
            </select>
          </div>
          {d.listType !== '' && (d.listType !== 'dynamic' || d.mapping.length === 0) && (
            <div className="field">
              <label className="field-label" htmlFor={fieldId('list')}>
                {t('CATALOGUE_LIST')}
              </label>
              <select id={fieldId('list')} value={d.listId ?? ''} onChange={(e) => set({ listId: e.target.value ? Number(e.target.value) : null })}>
                <option value="">{t('CATALOGUE_LIST_CHOOSE')}</option>
                {boundLists.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
        {d.listType === 'dynamic' && (
          <>
            <FieldPicker label={t('CATALOGUE_PRIMARY_FIELD')} fields={others} value={d.primary} onChange={(v) => set({ primary: v })} />
            <FieldPicker label={t('CATALOGUE_SECONDARY_FIELD')} fields={others} value={d.secondary} onChange={(v) => set({ secondary: v })} />
            <h4 className="catalogue-subtitle">{t('CATALOGUE_MAPPING')}</h4>
            <p className="hint">{t('CATALOGUE_MAPPING_HINT')}</p>
            {d.mapping.map((m, i) => (
              <div className="catalogue-mapping-row" key={i}>
                <div className="field">
                  <label className="field-label" htmlFor={fieldId(`map-${i}-primary`)}>
                    {t('CATALOGUE_MAPPING_PRIMARY', { n: i + 1 })}
                  </label>
                  <input
                    id={fieldId(`map-${i}-primary`)}
                    value={m.primaryValue}
                    onChange={(e) => set({ mapping: d.mapping.map((x, j) => (j === i ? { ...x, primaryValue: e.target.value } : x)) })}
                  />
                </div>
                <div className="field">
                  <label className="field-label" htmlFor={fieldId(`map-${i}-secondary`)}>
                    {t('CATALOGUE_MAPPING_SECONDARY', { n: i + 1 })}
                  </label>
                  <input
                    id={fieldId(`map-${i}-secondary`)}
                    value={m.secondaryValue}
                    onChange={(e) => set({ mapping: d.mapping.map((x, j) => (j === i ? { ...x, secondaryValue: e.target.value } : x)) })}
                  />
                </div>
                <div className="field">
                  <label className="field-label" htmlFor={fieldId(`map-${i}-list`)}>
                    {t('CATALOGUE_MAPPING_LIST', { n: i + 1 })}
                  </label>
                  <select
                    id={fieldId(`map-${i}-list`)}
                    value={m.listId ?? ''}
                    onChange={(e) => set({ mapping: d.mapping.map((x, j) => (j === i ? { ...x, listId: e.target.value ? Number(e.target.value) : null } : x)) })}
                  >
                    <option value="">{t('CATALOGUE_LIST_CHOOSE')}</option>
                    {valueLists.map((l) => (
                      <option key={l.id} value={l.id}>
                        {l.name}
                      </option>
                    ))}
                  </select>
                </div>
                <button type="button" className="button" aria-label={t('CATALOGUE_MAPPING_REMOVE', { n: i + 1 })} onClick={() => set({ mapping: d.mapping.filter((_, j) => j !== i) })}>
                  ✕
                </button>
              </div>
            ))}
            <div>
              <button type="button" className="button" onClick={() => set({ mapping: [...d.mapping, { listId: null, primaryValue: '', secondaryValue: '' }] })}>
                {t('CATALOGUE_MAPPING_ADD')}
              </button>
            </div>
          </>
        )}
      </fieldset>
    </>
  );
}
