import { describe, expect, it } from 'vitest';
import type { ConsoleField } from '../../src/features/admin-console/api/catalogue';
import { changeDraft, dependencyFields, draftToWire, fieldDraftProblem, fieldToDraft } from '../../src/features/admin-console/modes/field-catalog/field-draft';

const saved: ConsoleField = {
  id: 17,
  name: 'Account Code',
  type: 'CHARACTER',
  format: '',
  length: 7,
  multiValue: false,
  required: true,
  systemField: '',
  regex: '(?#Account code must look like AB-1234)^[A-Z]{2}-\\d{4}$',
  extendedConfig: { useRegExValidation: true, liveField: null },
  list: null,
  tableField: null,
  archives: [1],
};

describe('field editor draft', () => {
  it('a new field starts as CHARACTER of length 50 with nothing else set', () => {
    const d = fieldToDraft(null);
    expect(d).toMatchObject({ type: 'CHARACTER', length: 50, multiValue: false, required: false, systemField: '', listType: '' });
    expect(fieldDraftProblem(d, new Map())).toBe('CATALOGUE_NAME_REQUIRED');
  });

  it('the regex is edited as message and pattern and goes back as (?#message)pattern', () => {
    const d = fieldToDraft(saved);
    expect(d).toMatchObject({ regexMessage: 'Account code must look like AB-1234', regexPattern: '^[A-Z]{2}-\\d{4}$', useRegExValidation: true });
    expect(draftToWire(d)).toMatchObject({ name: 'Account Code', type: 'CHARACTER', length: 7, required: true, regex: saved.regex, list: null, extendedConfig: { useRegExValidation: true, liveField: null } });
  });

  it('a pattern the engine cannot check keeps the draft from being saved, with the reason', () => {
    const d = fieldToDraft(saved);
    expect(fieldDraftProblem(d, new Map())).toBeNull();
    expect(fieldDraftProblem({ ...d, regexPattern: '^(a)\\1$' }, new Map())).toBe('CATALOGUE_REGEX_UNSUPPORTED');
    expect(fieldDraftProblem({ ...d, regexPattern: 'x(?=y)' }, new Map())).toBe('CATALOGUE_REGEX_UNSUPPORTED');
    expect(fieldDraftProblem({ ...d, regexPattern: '([a-' }, new Map())).toBe('CATALOGUE_REGEX_INVALID');
    // Linear time, so the pattern that backtracks for seconds in JavaScript is fine.
    expect(fieldDraftProblem({ ...d, regexPattern: '^(a+)+$' }, new Map())).toBeNull();
  });

  it('a type change clears the regex settings; a system field turns multi-value and required off', () => {
    const d = changeDraft(fieldToDraft(saved), { type: 'NUMBER' });
    expect(d).toMatchObject({ type: 'NUMBER', regexMessage: '', regexPattern: '', useRegExValidation: false });
    expect(draftToWire(d).regex).toBe('');
    const s = changeDraft({ ...fieldToDraft(saved), multiValue: true }, { systemField: 'pageCount' });
    expect(s).toMatchObject({ multiValue: false, required: false });
    expect(changeDraft(fieldToDraft(saved), { systemField: 'readOnly' }).required).toBe(true);
  });

  it('a dynamic list needs the field it depends on and a mapping (or a dynamic list of its own rows)', () => {
    const base = { ...fieldToDraft(null), name: 'Depot', listType: 'dynamic' as const };
    expect(fieldDraftProblem(base, new Map())).toBe('CATALOGUE_DYNAMIC_PRIMARY_REQUIRED');
    expect(fieldDraftProblem({ ...base, primary: 7 }, new Map())).toBe('CATALOGUE_DYNAMIC_MAPPING_REQUIRED');
    expect(fieldDraftProblem({ ...base, primary: 7, listId: 3 }, new Map([[3, 2]]))).toBeNull();
    const mapped = { ...base, primary: 7, mapping: [{ listId: 4, primaryValue: ' France ', secondaryValue: '' }, { listId: null, primaryValue: 'x', secondaryValue: '' }] };
    expect(fieldDraftProblem(mapped, new Map())).toBeNull();
    expect(draftToWire(mapped).list).toEqual({ type: 'dynamic', listId: null, primary: 7, secondary: null, mapping: [{ listId: 4, primaryValue: 'France', secondaryValue: '' }] });
    expect(fieldDraftProblem({ ...base, listType: 'dropdown' }, new Map())).toBe('CATALOGUE_LIST_REQUIRED');
  });

  it('dependency fields name a dynamic field\'s primary and secondary', () => {
    const city = { ...saved, id: 9, name: 'City', list: { type: 'dynamic' as const, listId: 3, primary: 7, secondary: 8, mapping: [] } };
    expect(dependencyFields([saved, city])).toEqual([
      { id: 17, name: 'Account Code', dynamic: null },
      { id: 9, name: 'City', dynamic: { primary: 7, secondary: 8 } },
    ]);
  });
});
