// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { getRememberedDatabase, initialSelection, rememberDatabase } from '../../src/features/select/select-logic';

const A = { Id: 1, Name: 'Sales' };
const B = { Id: 2, Name: 'HR' };

describe('initialSelection', () => {
  it('none with no database', () => {
    expect(initialSelection([], 1)).toEqual({ selectedId: null, autoOpen: false });
  });
  it('selects and opens the only database', () => {
    expect(initialSelection([B], null)).toEqual({ selectedId: 2, autoOpen: true });
    expect(initialSelection([B], 7)).toEqual({ selectedId: 2, autoOpen: true });
  });
  it('restores the remembered database when it is still listed', () => {
    expect(initialSelection([A, B], 2)).toEqual({ selectedId: 2, autoOpen: false });
  });
  it('selects nothing when the remembered one is gone or none is remembered', () => {
    expect(initialSelection([A, B], 9)).toEqual({ selectedId: null, autoOpen: false });
    expect(initialSelection([A, B], null)).toEqual({ selectedId: null, autoOpen: false });
  });
});

describe('remembered database', () => {
  it('is kept in Dexie settings', async () => {
    expect(await getRememberedDatabase()).toBeNull();
    await rememberDatabase(5);
    expect(await getRememberedDatabase()).toBe(5);
  });
});
