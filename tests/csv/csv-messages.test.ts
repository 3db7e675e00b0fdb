import { readFileSync } from 'node:fs';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { CsvParseError, CsvScanner } from '../../src/platform/csv-parse';

const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'];
const resources = Object.fromEntries(
  LANGUAGES.map((l) => [l, { translation: JSON.parse(readFileSync(new URL(`../../public/languages/${l}.json`, import.meta.url), 'utf8')) as Record<string, string> }]),
);

function errorOf(text: string): CsvParseError {
  try {
    new CsvScanner({ fieldDelimiter: ';', stringDelimiter: '"', header: true, strictWidth: true }).push(text, true);
  } catch (e) {
    return e as CsvParseError;
  }
  throw new Error('parsed');
}

describe('a broken CSV is said in the user language, naming row and column', () => {
  const cases = { CSV_UNCLOSED_QUOTE: 'a;b\n1;"2\n', CSV_STRAY_QUOTE: 'a;b\n"1"x;2\n', CSV_TOO_MANY_FIELDS: 'a;b\n1;2;3\n', CSV_TOO_FEW_FIELDS: 'a;b\n\n\n1\n' };
  for (const lng of LANGUAGES) {
    it(lng, async () => {
      const t = i18next.createInstance();
      await t.init({ lng, resources, interpolation: { escapeValue: false } });
      for (const [code, text] of Object.entries(cases)) {
        const e = errorOf(text);
        expect(e.code).toBe(code);
        const message = t.t(e.code, { row: e.row, column: e.column });
        expect(message).not.toBe(e.code);
        expect(message).toContain(String(e.row));
        expect(message).toContain(String(e.column));
        if (lng !== 'en') expect(message).not.toBe(resources.en!.translation[code]!.replace('{{row}}', String(e.row)).replace('{{column}}', String(e.column)));
      }
    });
  }
  it('rows count as a spreadsheet shows them', () => {
    expect(errorOf('a;b\n\n\n1\n')).toMatchObject({ row: 4, column: 2 });
  });
});
