import { describe, expect, it } from 'vitest';
import { gridFields, isCellEditable, isLiveField, isReadOnlyProp, isRequired, READ_ONLY_PROP_BITS } from '../../src/fields/editability';

const base = { editMode: true, rowPermissions: 1 | 1024, isInbox: false, licenceType: 1, fieldProp: 0 };

describe('isCellEditable', () => {
  it('edit mode on, permission 1024, full licence, plain field', () => {
    expect(isCellEditable(base)).toBe(true);
    expect(isCellEditable({ ...base, editMode: false })).toBe(false);
    expect(isCellEditable({ ...base, rowPermissions: 1 | 512 | 2048 })).toBe(false);
    expect(isCellEditable({ ...base, rowPermissions: undefined })).toBe(false);
    expect(isCellEditable({ ...base, licenceType: 4 })).toBe(false);
    expect(isCellEditable({ ...base, licenceType: undefined })).toBe(true);
  });
  it('inbox files need bit 4, not 1024', () => {
    expect(isCellEditable({ ...base, isInbox: true, rowPermissions: 4 })).toBe(true);
    expect(isCellEditable({ ...base, isInbox: true, rowPermissions: 1024 })).toBe(false);
    expect(isCellEditable({ ...base, isInbox: false, rowPermissions: 4 })).toBe(false);
  });
  it.each(READ_ONLY_PROP_BITS)('Prop bit %i makes the cell read-only', (bit) => {
    expect(isReadOnlyProp(bit)).toBe(true);
    expect(isCellEditable({ ...base, fieldProp: bit })).toBe(false);
    expect(isCellEditable({ ...base, fieldProp: bit | 2 | 64 })).toBe(false);
  });
  it.each([2, 32, 64, 128, 2 | 32 | 64 | 128, 16384])('Prop %i leaves the cell editable', (prop) => {
    expect(isCellEditable({ ...base, fieldProp: prop })).toBe(true);
  });
  it('the whole matrix: editable only when every condition holds', () => {
    for (const editMode of [true, false])
      for (const isInbox of [true, false])
        for (const rowPermissions of [0, 4, 1024, 1028])
          for (const licenceType of [1, 4])
            for (const fieldProp of [0, 2, ...READ_ONLY_PROP_BITS]) {
              const expected = editMode && (rowPermissions & (isInbox ? 4 : 1024)) !== 0 && licenceType !== 4 && ![...READ_ONLY_PROP_BITS].some((b) => fieldProp & b);
              expect(isCellEditable({ editMode, isInbox, rowPermissions, licenceType, fieldProp })).toBe(expected);
            }
  });
});

describe('required, live fields', () => {
  it('Prop 2 is required; every inbox column is required', () => {
    expect(isRequired(2)).toBe(true);
    expect(isRequired(2 | 64)).toBe(true);
    expect(isRequired(64)).toBe(false);
    expect(isRequired(null)).toBe(false);
    expect(isRequired(0, { isInbox: true })).toBe(true);
  });
  it('live fields leave the grid and disable grid edit', () => {
    const plain = { ID: 1, ExtendedConfig: { LiveField: false } };
    const live = { ID: 2, ExtendedConfig: { LiveField: true } };
    const none = { ID: 3, ExtendedConfig: null };
    expect(isLiveField(live)).toBe(true);
    expect(isLiveField(plain)).toBe(false);
    expect(isLiveField(none)).toBe(false);
    expect(gridFields([plain, live, none])).toEqual({ columns: [plain, none], editAllowed: false });
    expect(gridFields([plain, none])).toEqual({ columns: [plain, none], editAllowed: true });
  });
});
