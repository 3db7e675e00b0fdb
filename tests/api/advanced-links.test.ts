/** The advanced-link template (src/api/advanced-links.ts): placeholders, encoding, unknown names, unsafe results. */
import { describe, expect, it } from 'vitest';
import { advancedLinkPlaceholders, advancedLinkSuggestions, fillAdvancedLink } from '../../src/api/advanced-links';

const doc = {
  documentId: 42,
  archiveId: 3,
  fields: [
    { name: 'Customer', VAL: 'Müller & Söhne GmbH' },
    { name: 'Invoice Number', VAL: '1001' },
    { name: 'Tags', VAL: 'a', MVAL: ['a b', '', 'c/d'] },
    { name: 'Empty', VAL: null },
  ],
};

describe('fillAdvancedLink', () => {
  it('fills the document id, the archive id and field values, each URL-encoded', () => {
    expect(fillAdvancedLink('https://crm.example.com/search?q={Customer}&doc={DocumentID}&archive={ArchiveID}', doc)).toEqual({
      ok: true,
      url: 'https://crm.example.com/search?q=M%C3%BCller%20%26%20S%C3%B6hne%20GmbH&doc=42&archive=3',
      missing: [],
    });
  });

  it('matches names case-insensitively, with spaces, and joins multi-value entries with commas', () => {
    const r = fillAdvancedLink(' https://x.example/{invoice number}/{documentid}?t={ Tags }&e={Empty} ', doc);
    expect(r).toEqual({ ok: true, url: 'https://x.example/1001/42?t=a%20b%2Cc%2Fd&e=', missing: [] });
  });

  it('fills a placeholder that names nothing with nothing and reports it once', () => {
    expect(fillAdvancedLink('https://x.example/?a={Nope}&b={nope}&c={DocumentID}', doc)).toEqual({ ok: true, url: 'https://x.example/?a=&b=&c=42', missing: ['Nope'] });
  });

  it('keeps a value from breaking out of its place (it cannot add parameters or a path)', () => {
    const r = fillAdvancedLink('https://x.example/{Customer}', { ...doc, fields: [{ name: 'Customer', VAL: '../admin?x=1#y' }] });
    expect(r).toEqual({ ok: true, url: 'https://x.example/..%2Fadmin%3Fx%3D1%23y', missing: [] });
  });

  it('refuses anything that is not an absolute http(s) address', () => {
    for (const p of ['javascript:alert({DocumentID})', 'data:text/html,{Customer}', '/relative/{DocumentID}', '{Customer}', 'ftp://x.example/{DocumentID}']) {
      expect(fillAdvancedLink(p, doc), p).toEqual({ ok: false, reason: 'not-http' });
    }
    // A value cannot turn the address into another scheme either.
    expect(fillAdvancedLink('{Customer}', { ...doc, fields: [{ name: 'Customer', VAL: 'javascript:alert(1)' }] }).ok).toBe(false);
  });
});

describe('placeholders and suggestions', () => {
  it('lists the placeholders a template uses, each once', () => {
    expect(advancedLinkPlaceholders('https://x/{Customer}/{DocumentID}?c={customer}&n={Invoice Number}')).toEqual(['Customer', 'DocumentID', 'Invoice Number']);
  });
  it('suggests the document id, the archive id and the field names', () => {
    expect(advancedLinkSuggestions(['Title', 'Invoice Number'])).toEqual(['{DocumentID}', '{ArchiveID}', '{Title}', '{Invoice Number}']);
  });
});
