import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDismiss } from '../../../ui/use-dismiss';
import { sanitizeTemplate } from './sanitize';

type Command = 'bold' | 'italic' | 'underline' | 'insertUnorderedList';
const COMMANDS: { command: Command; label: 'ADMIN_RTE_BOLD' | 'ADMIN_RTE_ITALIC' | 'ADMIN_RTE_UNDERLINE' | 'ADMIN_RTE_LIST'; glyph: string }[] = [
  { command: 'bold', label: 'ADMIN_RTE_BOLD', glyph: 'B' },
  { command: 'italic', label: 'ADMIN_RTE_ITALIC', glyph: 'I' },
  { command: 'underline', label: 'ADMIN_RTE_UNDERLINE', glyph: 'U' },
  { command: 'insertUnorderedList', label: 'ADMIN_RTE_LIST', glyph: '•' },
];

/**
 * A small rich-text editor (a contentEditable area; the browser's editing commands) with an
 * insert-field menu that puts '[Field name]' at the caret, the placeholder the server fills in when
 * it sends the notification. Its HTML starts from the sanitised value and is sanitised again on
 * save by the server.
 */
export function RichTextEditor(props: { label: string; value: string; onChange: (html: string) => void; fields: readonly string[] }) {
  const { t } = useTranslation();
  const area = useRef<HTMLDivElement>(null);
  const range = useRef<Range | null>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState(false);
  const labelId = useId();
  const { onChange } = props;
  useDismiss(menuRef, menu, () => setMenu(false));

  // The area is uncontrolled while typed in: its HTML is set once, from the value it opened with.
  const initial = useRef(props.value);
  useEffect(() => {
    if (area.current) area.current.innerHTML = sanitizeTemplate(initial.current);
  }, []);

  const keepSelection = () => {
    const sel = window.getSelection();
    if (sel && sel.rangeCount > 0 && area.current?.contains(sel.anchorNode)) range.current = sel.getRangeAt(0).cloneRange();
  };
  const restoreSelection = () => {
    area.current?.focus();
    const sel = window.getSelection();
    if (!sel) return;
    if (range.current) {
      sel.removeAllRanges();
      sel.addRange(range.current);
    } else if (area.current) {
      sel.selectAllChildren(area.current);
      sel.collapseToEnd();
    }
  };
  const exec = (command: string, value?: string) => {
    restoreSelection();
    document.execCommand(command, false, value);
    keepSelection();
    if (area.current) onChange(area.current.innerHTML);
  };

  return (
    <div className="rte">
      <div className="rte-toolbar" role="toolbar" aria-labelledby={labelId} ref={menuRef}>
        <span id={labelId} className="field-label">
          {props.label}
        </span>
        {COMMANDS.map((c) => (
          <button key={c.command} type="button" className="button" aria-label={t(c.label)} title={t(c.label)} onMouseDown={(e) => e.preventDefault()} onClick={() => exec(c.command)}>
            <span aria-hidden="true">{c.glyph}</span>
          </button>
        ))}
        <button type="button" className="button" aria-haspopup="menu" aria-expanded={menu} onMouseDown={(e) => e.preventDefault()} onClick={() => setMenu((m) => !m)}>
          {t('ADMIN_RTE_INSERT_FIELD')}
        </button>
        {menu && (
          <div className="rte-menu" role="menu" aria-label={t('ADMIN_RTE_INSERT_FIELD')}>
            {props.fields.length === 0 && <p className="hint">{t('ADMIN_NO_FIELDS')}</p>}
            {props.fields.map((name) => (
              <button
                key={name}
                type="button"
                role="menuitem"
                className="admin-list-item"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  setMenu(false);
                  exec('insertText', `[${name}]`);
                }}
              >
                {name}
              </button>
            ))}
          </div>
        )}
      </div>
      <div
        ref={area}
        className="rte-area"
        role="textbox"
        aria-multiline="true"
        aria-label={props.label}
        contentEditable
        suppressContentEditableWarning
        tabIndex={0}
        onInput={(e) => onChange(e.currentTarget.innerHTML)}
        onKeyUp={keepSelection}
        onMouseUp={keepSelection}
        onBlur={keepSelection}
      />
    </div>
  );
}
