// @vitest-environment happy-dom
/**
 * The catalogue's lists and pickers show at most 100 items (the console spec §9): the item list of a
 * tab filters by the typed text and says when more match; the field picker's suggestions are capped
 * the same way and a pick hands over the field's id.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FieldPicker, ItemList } from '../../src/features/admin-console/modes/field-catalog/catalogue-ui';
import { i18n } from '../../src/i18n/i18n';

const items = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, name: `Field ${String(i + 1).padStart(3, '0')}` }));
const wrap = (ui: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);

afterEach(cleanup);

describe('catalogue lists', () => {
  it('the item list shows 100 of 150, filters by the typed text, and picks by id', () => {
    const onSelect = vi.fn();
    wrap(<ItemList label="Fields" items={items} selected={null} onSelect={onSelect} />);
    const list = screen.getByRole('list', { name: 'Fields' });
    expect(within(list).getAllByRole('button')).toHaveLength(100);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'field 14' } });
    const shown = within(screen.getByRole('list', { name: 'Fields' })).getAllByRole('button');
    expect(shown.map((b) => b.textContent)).toEqual(['Field 140', 'Field 141', 'Field 142', 'Field 143', 'Field 144', 'Field 145', 'Field 146', 'Field 147', 'Field 148', 'Field 149']);
    fireEvent.click(shown[2]!);
    expect(onSelect).toHaveBeenCalledWith(142);
  });

  it('the field picker suggests at most 100 names and hands over the picked id', () => {
    const onChange = vi.fn();
    wrap(<FieldPicker label="Depends on" fields={items} value={null} onChange={onChange} />);
    const box = screen.getByRole('combobox', { name: 'Depends on' });
    fireEvent.focus(box);
    expect(screen.getAllByRole('option')).toHaveLength(100);
    fireEvent.change(box, { target: { value: '07' } });
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Field 007', 'Field 070', 'Field 071', 'Field 072', 'Field 073', 'Field 074', 'Field 075', 'Field 076', 'Field 077', 'Field 078', 'Field 079', 'Field 107']);
    fireEvent.mouseDown(options[0]!);
    expect(onChange).toHaveBeenCalledWith(7);
  });
});
