/**
 * The console's pure rules for searches, advanced links and DXC sources (the console spec §5, §9):
 * Versions archives removed, parameters of missing fields split off, the no-archives warning, the
 * Material Icons list and its capped suggestions, advanced-link placeholder suggestions, DXC names.
 */
import { describe, expect, it } from 'vitest';
import { applyLinkSuggestion, linkPatternIsHttp, linkSuggestionsAt, openPlaceholder } from '../../src/api/admin-advanced-links';
import { dxcNameTaken, duplicateMappedFields, isTestableConnection } from '../../src/api/admin-dxc';
import { ADMIN_AUTOCOMPLETE_CAP, iconSuggestions, splitParameters, validIcon, warnsNoArchives, withoutVersionsArchives } from '../../src/api/admin-searches';
import { MATERIAL_ICON_NAMES } from '../../src/api/material-icons';
import { dxcProblem } from '../../src/features/admin-console/dxc/dxc-source-form';
import { linkFieldNames, unknownPlaceholders } from '../../src/features/admin-console/modes/advanced-links/link-form';
import { openForEdit, searchFieldChoices } from '../../src/features/admin-console/modes/searches/search-rules';

const archives = [
  { id: 1, name: 'Invoices', parent: null, isVersions: false, contentSearch: true, fields: [{ id: 10, name: 'Title', type: 1 }, { id: 11, name: 'Amount', type: 4 }] },
  { id: 2, name: 'Paid', parent: 1, isVersions: false, contentSearch: false, fields: [{ id: 12, name: 'Paid On', type: 3 }] },
  { id: 3, name: 'Contracts', parent: null, isVersions: false, contentSearch: false, fields: [{ id: 13, name: 'Party', type: 1 }] },
  { id: 4, name: 'Contract Versions', parent: 3, isVersions: true, contentSearch: false, fields: [{ id: 13, name: 'Party', type: 1 }] },
];

describe('search rules', () => {
  it('removes versions archives (flag or Props bit 16) and repeats', () => {
    expect(withoutVersionsArchives([3, 4, 3, 1], archives)).toEqual({ kept: [3, 1], removed: [4] });
    expect(withoutVersionsArchives([5, 6], [{ id: 5, props: 16 }, { id: 6, props: 1 }])).toEqual({ kept: [6], removed: [5] });
  });

  it('splits off parameters whose field is not among the fields, keeping the content-search text', () => {
    const params = [{ f: 10 }, { f: 0 }, { f: 99 }, { f: 11 }];
    expect(splitParameters(params, (p) => p.f, new Set([10, 11]))).toEqual({ kept: [{ f: 10 }, { f: 0 }, { f: 11 }], dropped: [{ f: 99 }] });
  });

  it('warns for a top-level search without archives only', () => {
    expect(warnsNoArchives(0, [])).toBe(true);
    expect(warnsNoArchives(0, [1])).toBe(false);
    expect(warnsNoArchives(7, [])).toBe(false);
  });

  it('accepts only Material Icons names (or none) and caps suggestions at 100, prefix matches first', () => {
    expect(MATERIAL_ICON_NAMES.length).toBeGreaterThan(2000);
    expect(validIcon('receipt_long')).toBe(true);
    expect(validIcon(null)).toBe(true);
    expect(validIcon('')).toBe(true);
    expect(validIcon('Receipt_Long')).toBe(false);
    expect(validIcon('not_an_icon')).toBe(false);
    expect(iconSuggestions('').length).toBe(ADMIN_AUTOCOMPLETE_CAP);
    expect(iconSuggestions('a').length).toBe(100);
    const mail = iconSuggestions('mail');
    expect(mail[0]).toBe('mail');
    expect(mail).toContain('email');
    expect(mail.indexOf('email')).toBeGreaterThan(mail.indexOf('mail_outline'));
    expect(iconSuggestions('receipt long')).toContain('receipt_long');
    expect(iconSuggestions('zzzz')).toEqual([]);
  });

  it('offers the fields of the chosen archives and their sub-archives, and content search when one has it', () => {
    expect(searchFieldChoices(archives, [1])).toEqual({ fields: [{ id: 10, name: 'Title' }, { id: 11, name: 'Amount' }, { id: 12, name: 'Paid On' }], contentSearch: true });
    expect(searchFieldChoices(archives, [3]).contentSearch).toBe(false);
  });

  it('opens a search for editing without its versions archives and its missing fields', () => {
    const s = {
      id: 5, hash: 'h', name: 'S', parent: 0, archives: [3, 4], icon: null, advancedGrouping: false, grantAll: false, multiValue: false, displayViewTabs: false, useTime: false, shownInList: true, isDefault: false,
      contentSearch: { phonics: false, stemming: false, fuzziness: 0 },
      parameters: [{ field: 13, prompt: 'Party', condition: 'Equals' as const }, { field: 10, prompt: 'Title', condition: 'Contains' as const }],
    };
    const { draft, dropped } = openForEdit(s, archives);
    expect(draft.archives).toEqual([3]);
    expect(draft.parameters.map((p) => p.field)).toEqual([13]);
    expect(dropped.map((p) => p.prompt)).toEqual(['Title']);
    expect('id' in draft).toBe(false);
  });
});

describe('advanced link suggestions', () => {
  const names = ['Title', 'Invoice Number', 'Customer'];
  it('suggests only inside an open brace, filtered by what follows it, at most 100', () => {
    expect(openPlaceholder('https://x/{Cus', 14)).toEqual({ start: 10, typed: 'Cus' });
    expect(openPlaceholder('https://x/{Customer}', 20)).toBeNull();
    expect(linkSuggestionsAt('https://x/', 10, names)).toEqual([]);
    expect(linkSuggestionsAt('https://x/{', 11, names)).toEqual(['{DocumentID}', '{ArchiveID}', '{Title}', '{Invoice Number}', '{Customer}']);
    expect(linkSuggestionsAt('https://x/{num', 14, names)).toEqual(['{Invoice Number}']);
    expect(linkSuggestionsAt('https://x/{id', 13, names)).toEqual(['{DocumentID}', '{ArchiveID}']);
    const many = Array.from({ length: 300 }, (_, i) => `Field ${i}`);
    expect(linkSuggestionsAt('{', 1, many)).toHaveLength(100);
  });

  it('puts the chosen placeholder in place of the one being typed, caret after it', () => {
    expect(applyLinkSuggestion('https://x/{cu?a=1', 13, '{Customer}')).toEqual({ text: 'https://x/{Customer}?a=1', caret: 20 });
    expect(applyLinkSuggestion('https://x/{cu}', 13, '{Customer}')).toEqual({ text: 'https://x/{Customer}', caret: 20 });
  });

  it('checks the template gives an http(s) address and names placeholders that match nothing', () => {
    expect(linkPatternIsHttp('https://crm/{Customer}')).toBe(true);
    expect(linkPatternIsHttp('javascript:alert(1)')).toBe(false);
    expect(linkPatternIsHttp('{Customer}')).toBe(false);
    expect(unknownPlaceholders('https://x/{customer}/{DocumentID}/{Nope}', names)).toEqual(['Nope']);
    expect(linkFieldNames(archives, 3)).toEqual([{ id: 13, name: 'Party' }]);
    expect(linkFieldNames(archives, null).map((f) => f.id)).toEqual([10, 11, 12, 13]);
  });
});

describe('DXC source rules', () => {
  it('a name must not duplicate another source, case and spaces aside', () => {
    const others = [{ id: 1, name: 'ERP invoices' }];
    expect(dxcNameTaken(' erp INVOICES ', others, null)).toBe(true);
    expect(dxcNameTaken('ERP invoices', others, 1)).toBe(false);
    expect(dxcNameTaken('CRM', others, null)).toBe(false);
  });

  it('names twice-mapped fields and says what keeps a source from being saved', () => {
    expect(duplicateMappedFields([{ archiveField: 1 }, { archiveField: 2 }, { archiveField: 1 }])).toEqual([1]);
    const draft = { name: 'CRM', connectionString: '', mapping: [{ archiveField: 1, mappedField: 'A', required: true }] };
    expect(dxcProblem(draft, [], null)).toBeNull();
    expect(dxcProblem({ ...draft, name: ' ' }, [], null)).toBe('ADMIN_DXC_NAME_REQUIRED');
    expect(dxcProblem(draft, [{ id: 2, name: 'crm', archiveId: 1, connectionString: '', mapping: [] }], null)).toBe('DXC_SOURCE_NAME_EXISTS');
    expect(dxcProblem({ ...draft, mapping: [{ archiveField: 1, mappedField: '', required: false }] }, [], null)).toBe('ADMIN_DXC_MAPPED_REQUIRED');
    expect(dxcProblem({ ...draft, mapping: [...draft.mapping, ...draft.mapping] }, [], null)).toBe('ADMIN_DXC_DUPLICATE_FIELD');
  });

  it('tests only PostgreSQL addresses', () => {
    expect(isTestableConnection('postgres://u@h/db')).toBe(true);
    expect(isTestableConnection(' POSTGRESQL://h/db')).toBe(true);
    expect(isTestableConnection('Server=erp;Database=erp')).toBe(false);
  });
});
