import { describe, expect, it } from 'vitest';
import {
  applySystemFieldRule,
  assemblyProblem,
  cleanListValues,
  composeAssemblyPath,
  dynamicListWarnings,
  fieldRegexProblem,
  fieldTypeCode,
  needsTypeChangeConfirm,
  normaliseFieldType,
  regexAfterTypeChange,
  removedFromTableField,
  splitAssemblyPath,
  systemFieldOf,
  withSystemField,
} from '../../src/fields/catalogue-rules';
import { composeRegex, splitRegex } from '../../src/fields/regex';
import { validateValue } from '../../src/fields/rules';

describe('catalogue rules', () => {
  it('types: NUMERIC is NUMBER, case does not matter, unknown is undefined', () => {
    expect(fieldTypeCode('numeric')).toBe(2);
    expect(fieldTypeCode('Number')).toBe(2);
    expect(fieldTypeCode('DECIMAL')).toBe(4);
    expect(fieldTypeCode('BLOB')).toBeUndefined();
    expect(normaliseFieldType('NUMERIC')).toBe('NUMBER');
  });

  it('system fields: one Prop bit each; all but readOnly force multi-value and required off', () => {
    expect(systemFieldOf(16)).toBe('pageCount');
    expect(systemFieldOf(2048 | 2)).toBe('readOnly');
    expect(systemFieldOf(2 | 32)).toBe('');
    expect(withSystemField(2 | 16, 'fileType')).toBe(2 | 1024);
    expect(withSystemField(2 | 16, '')).toBe(2);
    expect(applySystemFieldRule({ systemField: 'indexedBy', multiValue: true, required: true })).toEqual({ systemField: 'indexedBy', multiValue: false, required: false });
    expect(applySystemFieldRule({ systemField: 'readOnly', multiValue: true, required: true })).toEqual({ systemField: 'readOnly', multiValue: true, required: true });
  });

  it('regex: the message is a leading comment, and the user app shows it for a value that does not match', () => {
    const regex = composeRegex('Two capitals (AB)', '^[A-Z]{2}$');
    expect(regex).toBe('(?#Two capitals AB)^[A-Z]{2}$');
    expect(splitRegex(regex)).toEqual({ message: 'Two capitals AB', pattern: '^[A-Z]{2}$' });
    expect(composeRegex('', '^x$')).toBe('^x$');
    expect(composeRegex('only a message', ' ')).toBe('');
    const r = validateValue({ Type: 1, RegEx: regex, ExtendedConfig: { UseRegExValidation: true } }, 'abc', 'en-US');
    expect(r).toMatchObject({ code: -1, message: 'Two capitals AB' });
    expect(fieldRegexProblem('(?#m)([a-', 1, 50)).toBe('CATALOGUE_REGEX_INVALID');
    expect(fieldRegexProblem('(?#only a message)', 1, 50)).toBeNull();
    expect(fieldRegexProblem('(?#m)^(a)\\1$', 1, 50)).toBe('CATALOGUE_REGEX_UNSUPPORTED');
    // The cost of a pattern grows with the longest value the field holds.
    expect(fieldRegexProblem('^(?:\\p{L}{30}|x){10}$', 1, 50)).toBeNull();
    expect(fieldRegexProblem('^(?:\\p{L}{30}|x){10}$', 1, 4000)).toBe('CATALOGUE_REGEX_UNSUPPORTED');
    expect(fieldRegexProblem('^(?:\\p{L}{30}|x){10}$', 3, 4000)).toBeNull();
  });

  it('a type or multi-value change of a saved field asks confirmation; a changed type clears the saved regex', () => {
    expect(needsTypeChangeConfirm(null, { type: 'DATE', multiValue: true })).toBe(false);
    expect(needsTypeChangeConfirm({ type: 'NUMBER', multiValue: false }, { type: 'NUMERIC', multiValue: false })).toBe(false);
    expect(needsTypeChangeConfirm({ type: 'NUMBER', multiValue: false }, { type: 'DATE', multiValue: false })).toBe(true);
    expect(needsTypeChangeConfirm({ type: 'NUMBER', multiValue: false }, { type: 'NUMBER', multiValue: true })).toBe(true);
    const saved = { regex: '^a$', useRegExValidation: true };
    expect(regexAfterTypeChange(1, 1, saved, saved)).toEqual(saved);
    expect(regexAfterTypeChange(1, 2, saved, saved)).toEqual({ regex: '', useRegExValidation: false });
    expect(regexAfterTypeChange(1, 2, saved, { regex: '^\\d$', useRegExValidation: true })).toEqual({ regex: '^\\d$', useRegExValidation: true });
  });

  it('lists: empty values dropped; assembly path prefix and the path-and-parameters rule', () => {
    expect(cleanListValues(['a', '', ' ', ' b '])).toEqual(['a', 'b']);
    expect(splitAssemblyPath('[sql] Server=x')).toEqual({ prefix: 'SQL', path: 'Server=x' });
    expect(splitAssemblyPath('Lists.dll')).toEqual({ prefix: '', path: 'Lists.dll' });
    expect(composeAssemblyPath('MONGODB', ' mongodb://h ')).toBe('[MONGODB]mongodb://h');
    expect(composeAssemblyPath('', '')).toBe('');
    expect(assemblyProblem({ assemblyPath: '', assemblyParameters: '' })).toBeNull();
    expect(assemblyProblem({ assemblyPath: '[SQL]', assemblyParameters: 'p' })).toBe('CATALOGUE_ASSEMBLY_PATH_REQUIRED');
    expect(assemblyProblem({ assemblyPath: 'x.dll', assemblyParameters: ' ' })).toBe('CATALOGUE_ASSEMBLY_PARAMETERS_REQUIRED');
    expect(assemblyProblem({ assemblyPath: '', assemblyParameters: 'p' })).toBe('CATALOGUE_ASSEMBLY_PATH_REQUIRED');
    expect(assemblyProblem({ assemblyPath: 'x.dll', assemblyParameters: 'p' })).toBeNull();
  });

  it('dynamic list dependencies warn both ways; table field removals are listed', () => {
    const cat = [
      { id: 1, name: 'Country' },
      { id: 2, name: 'Region' },
      { id: 3, name: 'City', dynamic: { primary: 1, secondary: 2 } },
    ];
    expect(dynamicListWarnings([1], [1, 3], cat)).toEqual([{ key: 'DYNAMIC_LIST_FIELD_DEPENDS_ON_FIELD', field: 'City', other: 'Region' }]);
    expect(dynamicListWarnings([1, 2, 3], [2, 3], cat)).toEqual([{ key: 'DYNAMIC_LIST_FIELD_REQUIRED_BY', field: 'Country', other: 'City' }]);
    expect(dynamicListWarnings([1, 2], [1, 2, 3], cat)).toEqual([]);
    expect(removedFromTableField(null, [1])).toEqual([]);
    expect(removedFromTableField([1, 2, 3], [3])).toEqual([1, 2]);
  });
});
