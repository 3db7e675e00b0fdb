import { describe, expect, it } from 'vitest';
import {
  checkedOnPage, emptySelection, inScope, isSelected, pageAllChecked, removeDocs, selectedDocs, selectionScope, setPageChecked, toggleDoc,
  type SelectedDoc,
} from '../../src/features/results/selection';

const doc = (id: number, archiveId = 7): SelectedDoc => ({ id, hash: `h${id}`, archiveId, title: `Doc ${id}` });
const page = (from: number, n: number) => Array.from({ length: n }, (_, i) => doc(from + i));
const scope = selectionScope({ db: 1, searchId: 2, archiveId: 7, criteria: 'c', tab: null });

describe('selection across pages', () => {
  it('documents checked on pages 1, 2 and 3 stay selected together, in the order they were checked', () => {
    let s = emptySelection();
    s = toggleDoc(s, scope, doc(3));
    s = toggleDoc(s, scope, doc(12));
    s = toggleDoc(s, scope, doc(25));
    expect(selectedDocs(s).map((d) => d.id)).toEqual([3, 12, 25]);
    expect(selectedDocs(s)[0]).toEqual({ id: 3, hash: 'h3', archiveId: 7, title: 'Doc 3' });
    // Page 2 shows only its own checked row.
    expect([...checkedOnPage(s, page(11, 10))]).toEqual([12]);
  });

  it('toggling twice unchecks', () => {
    const s = toggleDoc(toggleDoc(emptySelection(), scope, doc(3)), scope, doc(3));
    expect(selectedDocs(s)).toEqual([]);
  });

  it('the header checkbox checks and unchecks only this page; other pages keep theirs', () => {
    let s = toggleDoc(emptySelection(), scope, doc(1));
    s = setPageChecked(s, scope, page(11, 10), true);
    expect(selectedDocs(s)).toHaveLength(11);
    expect(pageAllChecked(s, page(11, 10))).toBe(true);
    expect(pageAllChecked(s, page(1, 10))).toBe(false);
    s = setPageChecked(s, scope, page(11, 10), false);
    expect(selectedDocs(s).map((d) => d.id)).toEqual([1]);
    expect(pageAllChecked(s, [])).toBe(false);
  });

  it('another scope (tab, archive, criteria) starts empty', () => {
    const s = toggleDoc(emptySelection(), scope, doc(1));
    const otherTab = selectionScope({ db: 1, searchId: 2, archiveId: 7, criteria: 'c', tab: 2 });
    expect(selectedDocs(inScope(s, otherTab))).toEqual([]);
    expect(selectedDocs(inScope(s, scope))).toHaveLength(1);
    const t = toggleDoc(s, otherTab, doc(5));
    expect(selectedDocs(t).map((d) => d.id)).toEqual([5]);
  });

  it('the same id in two archives is two documents', () => {
    let s = toggleDoc(emptySelection(), scope, doc(1, 7));
    s = toggleDoc(s, scope, doc(1, 6));
    expect(selectedDocs(s)).toHaveLength(2);
    expect(isSelected(s, { id: 1, archiveId: 6 })).toBe(true);
  });

  it('documents a job moved or deleted leave the selection; nothing changes when none of them was selected', () => {
    let s = toggleDoc(emptySelection(), scope, doc(1));
    s = toggleDoc(s, scope, doc(2));
    s = toggleDoc(s, scope, doc(3));
    expect(removeDocs(s, [doc(9)])).toBe(s);
    s = removeDocs(s, [doc(1), doc(3)]);
    expect(selectedDocs(s).map((d) => d.id)).toEqual([2]);
  });
});
