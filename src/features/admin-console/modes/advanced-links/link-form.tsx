import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { linkPatternIsHttp } from '../../../../api/admin-advanced-links';
import { ADVANCED_LINK_ARCHIVE_ID, ADVANCED_LINK_DOCUMENT_ID, ADVANCED_LINK_NAME_MAX, advancedLinkPlaceholders } from '../../../../api/advanced-links';
import type { LinkDraft } from '../../api/advanced-links';
import type { DesignerArchive } from '../../api/searches';
import { searchFieldChoices } from '../searches/search-rules';
import { PatternInput } from './pattern-input';

/** Field names a link of this archive may use: its own fields, or every field of the database for a database-wide link. */
export function linkFieldNames(archives: readonly DesignerArchive[], archiveId: number | null): { id: number; name: string }[] {
  return searchFieldChoices(archives, archiveId === null ? archives.map((a) => a.id) : [archiveId]).fields;
}

/** Placeholders of a template that name nothing a document of the archive has (they would be filled with ''). */
export function unknownPlaceholders(pattern: string, fieldNames: readonly string[]): string[] {
  const known = new Set([ADVANCED_LINK_DOCUMENT_ID, ADVANCED_LINK_ARCHIVE_ID, ...fieldNames].map((n) => n.trim().toLowerCase()));
  return advancedLinkPlaceholders(pattern).filter((p) => !known.has(p.toLowerCase()));
}

/** An advanced link in its editor (the console spec §3 Advanced link): name, archive, field, address template. */
export function LinkForm(props: { copy: LinkDraft; setCopy: (next: LinkDraft) => void; archives: readonly DesignerArchive[] }) {
  const { t } = useTranslation();
  const id = useId();
  const { copy, setCopy } = props;
  const fields = linkFieldNames(props.archives, copy.archiveId);
  const names = fields.map((f) => f.name);
  const notHttp = copy.urlPattern.trim() !== '' && !linkPatternIsHttp(copy.urlPattern);
  const unknown = unknownPlaceholders(copy.urlPattern, names);

  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {t('ADMIN_LINK_NAME')}
        </label>
        <input id={`${id}-name`} value={copy.name} maxLength={ADVANCED_LINK_NAME_MAX} onChange={(e) => setCopy({ ...copy, name: e.target.value })} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-archive`}>
          {t('ADMIN_LINK_ARCHIVE')}
        </label>
        <select
          id={`${id}-archive`}
          value={copy.archiveId ?? ''}
          onChange={(e) => {
            const archiveId = e.target.value === '' ? null : Number(e.target.value);
            const keep = copy.fieldId !== null && linkFieldNames(props.archives, archiveId).some((f) => f.id === copy.fieldId);
            setCopy({ ...copy, archiveId, fieldId: keep ? copy.fieldId : null });
          }}
        >
          <option value="">{t('ADMIN_LINKS_ALL_ARCHIVES')}</option>
          {props.archives.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-field`}>
          {t('ADMIN_LINK_FIELD')}
        </label>
        <select id={`${id}-field`} value={copy.fieldId ?? ''} onChange={(e) => setCopy({ ...copy, fieldId: e.target.value === '' ? null : Number(e.target.value) })}>
          <option value="">{t('ADMIN_LINK_FIELD_NONE')}</option>
          {fields.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </div>
      <PatternInput value={copy.urlPattern} onChange={(urlPattern) => setCopy({ ...copy, urlPattern })} fieldNames={names} invalid={notHttp} describedBy={`${id}-hint`} />
      <p id={`${id}-hint`} className={notHttp ? 'form-error' : 'hint'}>
        {notHttp ? t('ADMIN_LINK_NOT_HTTP') : t('ADMIN_LINK_URL_HINT', { brace: '{' })}
      </p>
      {unknown.length > 0 && (
        <p className="callout" role="status" data-testid="link-unknown">
          {t('ADMIN_LINK_UNKNOWN_PLACEHOLDER', { names: unknown.map((n) => `{${n}}`).join(', ') })}
        </p>
      )}
    </>
  );
}
