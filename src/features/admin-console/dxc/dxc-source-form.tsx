import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DXC_CONNECTION_MAX, DXC_NAME_MAX, dxcNameTaken, duplicateMappedFields } from '../../../api/admin-dxc';
import { handleError } from '../../../api/error-handler';
import type { TranslationKey } from '../../../i18n/resources';
import { testDxcConnection, type ConsoleDxc, type DxcDraft, type DxcTest } from '../api/dxc';

const TEST_TEXT: Record<string, TranslationKey> = {
  DXC_CONNECTION_OK: 'DXC_CONNECTION_OK',
  DXC_CONNECTION_UNSUPPORTED: 'DXC_CONNECTION_UNSUPPORTED',
  DXC_CONNECTION_FAILED: 'DXC_CONNECTION_FAILED',
  DXC_CONNECTION_UNREACHABLE: 'DXC_CONNECTION_UNREACHABLE',
};

/** Why a source cannot be saved yet (§5 unique name; a mapping names each archive field once and a source column), or null. */
export function dxcProblem(copy: DxcDraft, others: readonly ConsoleDxc[], selfId: number | null): TranslationKey | null {
  if (copy.name.trim() === '') return 'ADMIN_DXC_NAME_REQUIRED';
  if (dxcNameTaken(copy.name, others, selfId)) return 'DXC_SOURCE_NAME_EXISTS';
  if (copy.mapping.some((m) => m.mappedField.trim() === '')) return 'ADMIN_DXC_MAPPED_REQUIRED';
  if (duplicateMappedFields(copy.mapping).length) return 'ADMIN_DXC_DUPLICATE_FIELD';
  return null;
}

/** One DXC source in its editor: name, connection string with a connection test, and the field mapping. */
export function DxcSourceForm(props: { copy: DxcDraft; setCopy: (next: DxcDraft) => void; fields: readonly { id: number; name: string }[] }) {
  const { t } = useTranslation();
  const id = useId();
  const { copy, setCopy } = props;
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<DxcTest | null>(null);
  const setMap = (i: number, p: Partial<DxcDraft['mapping'][number]>) => setCopy({ ...copy, mapping: copy.mapping.map((m, j) => (j === i ? { ...m, ...p } : m)) });
  const free = props.fields.find((f) => !copy.mapping.some((m) => m.archiveField === f.id));

  const test = async () => {
    setTesting(true);
    setResult(null);
    try {
      setResult(await testDxcConnection(copy.connectionString));
    } catch (e) {
      handleError(e);
    } finally {
      setTesting(false);
    }
  };

  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {t('ADMIN_DXC_NAME')}
        </label>
        <input id={`${id}-name`} value={copy.name} maxLength={DXC_NAME_MAX} onChange={(e) => setCopy({ ...copy, name: e.target.value })} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-conn`}>
          {t('ADMIN_DXC_CONNECTION')}
        </label>
        <input id={`${id}-conn`} className="admin-link-pattern" value={copy.connectionString} maxLength={DXC_CONNECTION_MAX} spellCheck={false} autoComplete="off" onChange={(e) => setCopy({ ...copy, connectionString: e.target.value })} />
      </div>
      <div className="admin-row">
        <button type="button" className="button" disabled={testing || copy.connectionString.trim() === ''} onClick={() => void test()}>
          {testing ? t('ADMIN_DXC_TESTING') : t('ADMIN_DXC_TEST')}
        </button>
        {result && (
          <p className={result.success ? 'callout' : 'callout callout-error'} role="status" data-testid="dxc-test-result">
            {t(TEST_TEXT[result.key] ?? 'DXC_CONNECTION_FAILED', { count: result.tables.length, reason: result.message })}
          </p>
        )}
      </div>
      <fieldset className="admin-section">
        <legend>{t('ADMIN_DXC_MAPPING')}</legend>
        <ol className="admin-param-list">
          {copy.mapping.map((m, i) => {
            const n = i + 1;
            return (
              <li key={i} className="admin-param-row" data-testid="dxc-mapping">
                <select aria-label={t('ADMIN_DXC_ARCHIVE_FIELD_N', { n })} value={m.archiveField} onChange={(e) => setMap(i, { archiveField: Number(e.target.value) })}>
                  {props.fields.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.name}
                    </option>
                  ))}
                </select>
                <input aria-label={t('ADMIN_DXC_MAPPED_FIELD_N', { n })} value={m.mappedField} maxLength={200} onChange={(e) => setMap(i, { mappedField: e.target.value })} />
                <label className="admin-check">
                  <input type="checkbox" checked={m.required} onChange={(e) => setMap(i, { required: e.target.checked })} />
                  {t('ADMIN_DXC_REQUIRED')}
                </label>
                <div className="admin-row admin-param-actions">
                  <button type="button" className="button" aria-label={t('ADMIN_DXC_MAPPING_REMOVE', { n })} onClick={() => setCopy({ ...copy, mapping: copy.mapping.filter((_, j) => j !== i) })}>
                    ✕
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
        <div>
          <button type="button" className="button" disabled={!free} onClick={() => free && setCopy({ ...copy, mapping: [...copy.mapping, { archiveField: free.id, mappedField: '', required: false }] })}>
            {t('ADMIN_DXC_MAPPING_ADD')}
          </button>
        </div>
      </fieldset>
    </>
  );
}
