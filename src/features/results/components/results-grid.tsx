/**
 * The Handsontable grid of a results page. Handsontable is driven imperatively: the HotTable element
 * never re-renders (its settings are fixed at mount); columns go in through updateSettings, rows
 * through updateData, selection and thumbnails through renderers that read refs. Fixed row heights
 * and column widths, no auto-sizing and small rendering offsets keep the DOM under ~400 cells for any
 * page size (ENVIRONMENT.md: 5x faster than the defaults). Sorting is the server's: a header click is
 * reported to the screen (onSortChange) and the plugin only shows the indicators.
 *
 * Each Handsontable render recalculates the styles of every cell it wrote (~10 ms for ~500 elements
 * here), so the grid is built with its first page, columns, height and sort marks at once (one render
 * at mount), and afterwards one effect applies whatever changed in a single batch (at most one render
 * per commit).
 */
import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HotTable, type HotTableProps, type HotTableRef } from '@handsontable/react-wrapper';
import type Handsontable from 'handsontable/base';
import { registerCellType, TextCellType } from 'handsontable/cellTypes';
import { registerPlugin, ManualColumnResize, MultiColumnSorting } from 'handsontable/plugins';
import { textRenderer } from 'handsontable/renderers';
import type { GridEditing } from '../../../ui/grid-editing';
import type { AppTFunction as TFunction } from '../../../i18n/t-function';
import 'handsontable/styles/handsontable.min.css';
import 'handsontable/styles/ht-theme-main.min.css';
import { MIN_COLUMN_WIDTH, type ColumnView, type DocLike, type SortSpec, HITS_COLUMN } from '../grid-logic';

registerCellType(TextCellType);
registerPlugin(MultiColumnSorting);
registerPlugin(ManualColumnResize);

export const ROW_HEIGHT = 30;
/**
 * Rows on touch screens ((pointer: coarse)): a finger needs a 44 px target to select a row (the
 * whole check cell toggles). Still one fixed height, so rows are never measured; read once per grid.
 */
export const TOUCH_ROW_HEIGHT = 44;
const rowHeight = () => (typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches ? TOUCH_ROW_HEIGHT : ROW_HEIGHT);
export const GRID_HEIGHT = 420;
/** The grid takes the window's remaining height within these bounds: a tall screen still keeps the cells in the DOM under budget. */
const MIN_GRID_HEIGHT = 300;
const MAX_GRID_HEIGHT = 640;

export interface ResultsGridProps {
  docs: readonly DocLike[];
  rows: unknown[][];
  /** Visible columns, in order. */
  columns: readonly ColumnView[];
  fixedColumns: number;
  sorts: readonly SortSpec[];
  checked: ReadonlySet<number>;
  /** Identifies the page shown (its cache key): a new page starts scrolled to its first row. */
  scrollKey?: string;
  licenseKey: string;
  thumbSrc: (doc: DocLike) => string;
  onToggleCheck: (doc: DocLike) => void;
  onSortChange: (sorts: SortSpec[]) => void;
  onResize: (columnId: string, width: number) => void;
  onActivateRow: (doc: DocLike) => void;
  onOpenThumb: (doc: DocLike) => void;
  /** Right-click, long-press on touch, or Shift+F10 / the menu key on a row: its menu at that point. */
  onContextMenu?: (doc: DocLike, at: { x: number; y: number }) => void;
  /** Double-click or Enter on a row (not on its check or thumbnail cell, nor on a cell being edited): open the document. */
  onOpenRow?: (doc: DocLike) => void;
  /** Index editing (features/editing): editable cells, marks, committed values. Absent: read-only. */
  editing?: GridEditing;
  /** A field cell's text as the user reads it (mask, locale); the data keeps the wire value. */
  formatCell?: (fieldId: number, value: string) => string;
  /** A word shown on the row's thumbnail (e.g. kept offline), or null; a new function redraws the rows. */
  rowBadge?: (doc: DocLike) => string | null;
}

type Hot = Handsontable;
type SortConfig = { column: number; sortOrder: 'asc' | 'desc' };

function mark(name: string) {
  if (typeof performance !== 'undefined' && performance.mark) performance.mark(name);
}

/** After the browser has painted the frame that holds the new rows. */
function afterPaint(fn: () => void) {
  requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => fn();
    ch.port2.postMessage(null);
  });
}

const StaticHot = memo(function StaticHot({ settings, setHost }: { settings: HotTableProps; setHost: (r: HotTableRef | null) => void }) {
  return <HotTable {...settings} ref={setHost} />;
});



/** The height that fills the window below the grid's top, within the bounds. Reads layout. */
function fittedHeight(root: HTMLElement): number {
  const top = root.getBoundingClientRect().top + window.scrollY;
  return Math.round(Math.min(MAX_GRID_HEIGHT, Math.max(MIN_GRID_HEIGHT, window.innerHeight - top - 16)));
}

const columnsSignature = (p: ResultsGridProps) => p.columns.map((c) => `${c.id}:${c.width}:${c.pinned ? 1 : 0}`).join(',') + `|${p.fixedColumns}`;
const sortSignature = (p: ResultsGridProps) => p.sorts.map((s) => `${s.column}:${s.direction}`).join(',');

/** What the grid shows now: the effect compares the props with it and applies only the differences. */
interface Applied {
  columnsSig: string;
  t: TFunction;
  rows: unknown[][];
  sortSig: string;
  scrollKey: string | undefined;
  editing: GridEditing | undefined;
  checked: ReadonlySet<number>;
  rowBadge: ResultsGridProps['rowBadge'];
}

/**
 * The rows Handsontable holds: a view that reads the current rows. A page of the same length (the
 * next page of a large result) then swaps in with one render: updateData would build a new data map
 * and walk its 10,000 row indexes (IndexMapper.fitToLength) for a row count that did not change.
 */
function rowsView(initial: unknown[][]) {
  const source = { current: initial };
  const view = new Proxy([] as unknown[][], {
    get: (_t, key) => Reflect.get(source.current, key),
    set: (_t, key, value) => Reflect.set(source.current, key, value),
    has: (_t, key) => Reflect.has(source.current, key),
    deleteProperty: (_t, key) => Reflect.deleteProperty(source.current, key),
    ownKeys: () => Reflect.ownKeys(source.current),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(source.current, key);
      // Only `length` is not configurable (on the target too): the others are reported as configurable.
      return d && key !== 'length' ? { ...d, configurable: true } : d;
    },
  });
  return { source, view };
}

/**
 * The grid's fixed settings and a holder for the latest props that its hooks read. Built once per
 * grid (outside render), so the HotTable element never changes. The settings already hold the first
 * page, its columns and the fitted height, and the sort marks are set before the first render.
 */
function createGridBridge(licenseKey: string, initial: ResultsGridProps, t: TFunction) {
  const latest = { current: initial };
  const hot = { current: null as Hot | null };
  const host = { current: null as HotTableRef | null };
  const applied: Applied = {
    columnsSig: columnsSignature(initial),
    t,
    rows: initial.rows,
    sortSig: sortSignature(initial),
    scrollKey: initial.scrollKey,
    editing: initial.editing,
    checked: initial.checked,
    rowBadge: initial.rowBadge,
  };
  const size = { height: GRID_HEIGHT };
  const data = rowsView(initial.rows);
  const docAt = (row: number): DocLike | undefined => latest.current.docs[row];
  const colAt = (col: number): ColumnView | undefined => latest.current.columns[col];
  // A long-press on touch: Handsontable runs the mouse-down and selection hooks and then dispatches
  // a contextmenu event, all in one task. What a tap does (toggle, preview, activate the row, which
  // opens the edit panel on touch) waits for the end of that task, so a long-press opens the menu alone.
  let pending: (() => void)[] = [];
  const afterTask = (fn: () => void) => {
    pending.push(fn);
    if (pending.length === 1)
      queueMicrotask(() => {
        const run = pending;
        pending = [];
        for (const f of run) f();
      });
  };
  const openMenu = (row: number, at: { x: number; y: number }) => {
    const doc = docAt(row);
    if (!doc || !latest.current.onContextMenu) return false;
    pending = [];
    latest.current.onContextMenu(doc, at);
    return true;
  };
  // Opens the row's document unless the cell has its own action (check, thumbnail) or is editable.
  const openRow = (row: number, col: number) => {
    const doc = docAt(row);
    const c = colAt(col);
    const open = latest.current.onOpenRow;
    if (!doc || !c || !open || c.kind === 'check' || c.kind === 'thumb') return false;
    if (c.kind === 'field' && latest.current.editing && latest.current.editing.cellMeta(row, col).readOnly === false) return false;
    open(doc);
    return true;
  };
  const settings = {
    licenseKey,
    // After the settings are applied, before the first render: the sort marks are drawn with it.
    init(this: Hot) {
      hot.current = this;
      paintSort(this, latest.current);
      // Handsontable has no double-click hook for cells: the root's own event, mapped to the cell.
      this.rootElement.addEventListener('dblclick', (event) => {
        const td = event.target instanceof Element ? event.target.closest('td') : null;
        const coords = td && hot.current ? hot.current.getCoords(td) : null;
        if (coords && coords.row !== null && coords.col !== null && coords.row >= 0) openRow(coords.row, coords.col);
      });
    },
    themeName: 'ht-theme-main',
    // The core styles come with the grid chunk's CSS (the handsontable.min.css import above): injecting
    // them again as a <style> doubles the cost of every style recalculation.
    injectCoreCss: false,
    ...columnSettings(initial, t, latest),
    data: data.view,
    readOnly: true,
    editor: false,
    rowHeaders: false,
    // Read once, when Handsontable applies its settings at init (its root is in the page by then).
    height: () => {
      const root = host.current?.hotElementRef;
      if (root) size.height = fittedHeight(root);
      return size.height;
    },
    width: '100%',
    rowHeights: rowHeight(),
    // One line per row: wrapped text would make rows taller than the row height (long values show an ellipsis).
    wordWrap: false,
    autoRowSize: false,
    autoColumnSize: false,
    renderAllRows: false,
    viewportRowRenderingOffset: 2,
    viewportColumnRenderingOffset: 1,
    stretchH: 'none',
    multiColumnSorting: { headerAction: true, indicator: true },
    outsideClickDeselects: false,
    selectionMode: 'single',
    fillHandle: false,
    // Field cells: editable or not by the editing rules (read at each render).
    cells(row: number, col: number) {
      const e = latest.current.editing;
      return e && colAt(col)?.kind === 'field' ? e.cellMeta(row, col) : undefined;
    },
    // A committed value goes to the editing hook, which validates it and lays it over the rows.
    beforeChange(changes: (Handsontable.CellChange | null)[]) {
      const e = latest.current.editing;
      for (const ch of changes) {
        if (!ch || !e) continue;
        const [row, prop, , value] = ch;
        e.onEdit(row, Number(prop), value === null || value === undefined ? '' : String(value));
      }
      return false;
    },
    beforeColumnSort(_current: SortConfig[], destination: SortConfig[]) {
      mark('sort-start');
      const cols = latest.current.columns;
      const next: SortSpec[] = [];
      for (const d of destination) {
        const c = cols[d.column];
        if (!c?.sortable) continue;
        next.push({ column: c.id, direction: c.id === HITS_COLUMN ? 'desc' : d.sortOrder });
      }
      latest.current.onSortChange(next);
      return false;
    },
    beforeColumnResize(newSize: number) {
      return Math.max(MIN_COLUMN_WIDTH, newSize);
    },
    afterColumnResize(newSize: number, column: number) {
      const c = colAt(column);
      if (c) latest.current.onResize(c.id, Math.max(MIN_COLUMN_WIDTH, Math.round(newSize)));
    },
    afterOnCellMouseDown(event: MouseEvent | TouchEvent, coords: { row: number; col: number }) {
      if (coords.row < 0) return;
      // The right button opens the menu (afterOnCellContextMenu), not the preview.
      if ('button' in event && event.button !== 0) return;
      const doc = docAt(coords.row);
      const col = colAt(coords.col);
      if (!doc || !col) return;
      afterTask(() => {
        if (col.kind === 'check') latest.current.onToggleCheck(doc);
        else if (col.kind === 'thumb') latest.current.onOpenThumb(doc);
        latest.current.onActivateRow(doc);
      });
    },
    afterOnCellContextMenu(event: MouseEvent, coords: { row: number; col: number }) {
      if (coords.row >= 0 && openMenu(coords.row, { x: event.clientX, y: event.clientY })) event.preventDefault();
    },
    beforeKeyDown(this: Hot, event: KeyboardEvent) {
      const sel = this.getSelectedRangeLast();
      if (!sel) return;
      const { row, col } = sel.highlight;
      if (row === null || col === null) return;
      const doc = docAt(row);
      const c = colAt(col);
      if (!doc || !c) return;
      if (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) {
        const rect = this.getCell(row, col)?.getBoundingClientRect();
        if (openMenu(row, rect ? { x: rect.left + 8, y: rect.bottom } : { x: 8, y: 8 })) event.preventDefault();
      } else if (event.key === ' ' && c.kind === 'check') {
        latest.current.onToggleCheck(doc);
        event.preventDefault();
      } else if (event.key === 'Enter' && c.kind === 'thumb') {
        latest.current.onOpenThumb(doc);
        event.preventDefault();
      } else if (event.key === 'Enter' && !event.shiftKey && !this.getActiveEditor()?.isOpened() && openRow(row, col)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    },
    afterSelectionEnd(this: Hot, row: number) {
      const doc = docAt(row);
      if (doc) afterTask(() => latest.current.onActivateRow(doc));
    },
  } as HotTableProps;
  const setLatest = (p: ResultsGridProps) => {
    latest.current = p;
  };
  const setHost = (r: HotTableRef | null) => {
    host.current = r;
  };
  return { latest, hot, applied, size, data, settings, setLatest, setHost };
}

/** The per-column settings (renderers read the latest props through `latest`). */
function columnSettings(p: ResultsGridProps, t: TFunction, latest: { current: ResultsGridProps }) {
  const cols = p.columns;
  // The rendered rows keep their numbers across pages: each label is translated once.
  const labels = new Map<number, string>();
  const selectLabel = (row: number) => {
    let label = labels.get(row);
    if (label === undefined) {
      label = t('RESULTS_SELECT_ROW', { row: row + 1 });
      labels.set(row, label);
    }
    return label;
  };
  const previewLabel = t('RESULTS_THUMB_OPEN');
  const touch = rowHeight() === TOUCH_ROW_HEIGHT;
  const widths = cols.map((c) => (c.kind === 'check' ? (touch ? 52 : 44) : c.kind === 'thumb' ? 56 : c.width));
  return {
    columns: cols.map((c) => ({
      readOnly: true,
      // Per-column options go under the plugin's own key (multiColumnSorting, not columnSorting).
      multiColumnSorting: c.sortable ? undefined : { headerAction: false, indicator: false },
      renderer:
        c.kind === 'check'
          ? (_i: Hot, td: HTMLTableCellElement, row: number) => renderCheck(td, row, latest.current, selectLabel)
          : c.kind === 'thumb'
            ? (_i: Hot, td: HTMLTableCellElement, row: number) => renderThumb(td, latest.current.docs[row], latest.current.thumbSrc, previewLabel, latest.current.rowBadge)
            : (i: Hot, td: HTMLTableCellElement, row: number, col: number, prop: string | number, value: unknown, cp: Handsontable.CellProperties) => {
                const fieldId = latest.current.columns[col]?.fieldId;
                const format = latest.current.formatCell;
                const shown = format && fieldId !== undefined && typeof value === 'string' ? format(fieldId, value) : value;
                textRenderer(i, td, row, col, prop, shown, cp);
                latest.current.editing?.decorate(td, row, col);
                return td;
              },
    })),
    colHeaders: cols.map((c) => c.title),
    colWidths: widths,
    manualColumnResize: widths,
    fixedColumnsStart: p.fixedColumns,
  };
}

export function ResultsGrid(props: ResultsGridProps) {
  const { t } = useTranslation();
  const [bridge] = useState(() => createGridBridge(props.licenseKey, props, t));
  const { hot, applied, size, data } = bridge;

  // Whatever changed since the last commit, in one Handsontable batch (one render): columns (and with
  // them the data shape), rows (new page, local sort, fresh data), sort marks, and what the renderers
  // read (edit mode and marks, the selection).
  useEffect(() => {
    bridge.setLatest(props);
    const h = hot.current;
    if (!h) return;
    const columnsSig = columnsSignature(props);
    const sortSig = sortSignature(props);
    const columnsChanged = applied.columnsSig !== columnsSig || applied.t !== t;
    const rowsChanged = applied.rows !== props.rows;
    const sortChanged = applied.sortSig !== sortSig;
    const looksChanged = applied.editing !== props.editing || applied.checked !== props.checked || applied.rowBadge !== props.rowBadge;
    if (!columnsChanged && !rowsChanged && !sortChanged && !looksChanged) return;
    // New data or looks must not take focus from an input beside the grid (the edit panel): after a
    // redraw that refreshed its selection Handsontable focuses its active cell, and a value being typed
    // in the panel was left unjudged and unsaved. Suspended, it keeps an outside input's focus.
    const focus = h.getFocusManager();
    const typingBeside = isOutsideInput(document.activeElement, h.rootElement);
    if (typingBeside) focus.suspend();
    h.batch(() => {
      // Another page of the same length, same columns, no cell editor open: the rows are read through
      // the view at the render below. Anything else goes through updateData (an edit on this page
      // closes the editor that way).
      const swapOnly =
        !columnsChanged &&
        rowsChanged &&
        applied.scrollKey !== props.scrollKey &&
        props.rows.length === data.source.current.length &&
        !h.getActiveEditor()?.isOpened();
      data.source.current = props.rows;
      if (columnsChanged) h.updateSettings({ ...columnSettings(props, t, bridge.latest), data: data.view } as Handsontable.GridSettings);
      else if (rowsChanged && !swapOnly) h.updateData(data.view);
      // updateData keeps the scroll position: another page would open at the old page's offset.
      if (rowsChanged && applied.scrollKey !== props.scrollKey) {
        applied.scrollKey = props.scrollKey;
        if (props.rows.length > 0) h.scrollViewportTo({ row: 0 });
      }
      paintSort(h, props);
      if ((!columnsChanged && !rowsChanged) || swapOnly) h.render();
    });
    if (typingBeside) focus.resume();
    Object.assign(applied, { columnsSig, t, rows: props.rows, sortSig, editing: props.editing, checked: props.checked, rowBadge: props.rowBadge });
    if (columnsChanged || rowsChanged) {
      mark('grid-rendered');
      afterPaint(() => mark('grid-painted'));
    }
  });

  // Built with the first page (in HotTable's own mount effect, which runs before this one): painted then.
  useEffect(() => {
    afterPaint(() => mark('grid-painted'));
  }, []);

  // The grid fills the window below it (fitted at init) and follows resizes and rotations.
  useEffect(() => {
    const fitHeight = () => {
      const h = hot.current;
      if (!h) return;
      const height = fittedHeight(h.rootElement);
      if (height === size.height) return;
      size.height = height;
      h.updateSettings({ height });
    };
    window.addEventListener('resize', fitHeight);
    return () => window.removeEventListener('resize', fitHeight);
  }, [hot, size]);

  return <StaticHot settings={bridge.settings} setHost={bridge.setHost} />;
}

/** An input, select or text area outside the grid has focus (the edit panel's, a search prompt). */
function isOutsideInput(el: Element | null, gridRoot: HTMLElement): boolean {
  return el instanceof HTMLElement && !gridRoot.contains(el) && (el.matches('input, select, textarea') || el.isContentEditable);
}

/** Shows the server's sort in the header indicators. */
function paintSort(hot: Hot, p: ResultsGridProps) {
  const plugin = hot.getPlugin('multiColumnSorting') as unknown as { setSortConfig?: (c: SortConfig[]) => void } | undefined;
  if (!plugin?.setSortConfig) return;
  const configs: SortConfig[] = [];
  for (const s of p.sorts) {
    const idx = p.columns.findIndex((c) => c.id === s.column);
    if (idx >= 0) configs.push({ column: idx, sortOrder: s.direction });
  }
  plugin.setSortConfig(configs);
}

function renderCheck(td: HTMLTableCellElement, row: number, p: ResultsGridProps, label: (row: number) => string) {
  const doc = p.docs[row];
  let input = td.firstChild as HTMLInputElement | null;
  if (!input || input.tagName !== 'INPUT') {
    td.textContent = '';
    input = document.createElement('input');
    input.type = 'checkbox';
    input.tabIndex = -1;
    input.className = 'results-check';
    td.appendChild(input);
  }
  input.checked = !!doc && p.checked.has(doc.Id);
  const text = label(row);
  if (input.getAttribute('aria-label') !== text) input.setAttribute('aria-label', text);
  td.className = 'htCenter';
  return td;
}

function renderThumb(td: HTMLTableCellElement, doc: DocLike | undefined, src: (d: DocLike) => string, label: string, badge?: (d: DocLike) => string | null) {
  let img = td.firstChild as HTMLImageElement | null;
  if (!img || img.tagName !== 'IMG') {
    td.textContent = '';
    img = document.createElement('img');
    img.className = 'results-thumb';
    img.loading = 'lazy';
    img.decoding = 'async';
    img.width = 40;
    img.height = 24;
    img.onerror = () => img?.classList.add('results-thumb-missing');
    td.appendChild(img);
  }
  if (img.alt !== label) img.alt = label;
  if (doc) {
    const url = src(doc);
    if (img.getAttribute('src') !== url) {
      img.classList.remove('results-thumb-missing');
      img.setAttribute('src', url);
    }
  } else img.removeAttribute('src');
  td.className = 'htCenter results-thumb-cell';
  const word = doc && badge ? badge(doc) : null;
  let mark = img.nextElementSibling as HTMLElement | null;
  if (word && !mark) {
    mark = document.createElement('span');
    mark.className = 'results-row-badge';
    td.appendChild(mark);
  }
  if (mark && !word) mark.remove();
  else if (mark && mark.textContent !== word) mark.textContent = word;
  return td;
}
