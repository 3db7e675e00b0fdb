/**
 * The stamp's text (the archive-ops spec §3: @Today, @User) and the annotation model the viewer draws
 * from (src/features/viewer/annotations): pure functions, no browser.
 */
import { describe, expect, it } from 'vitest';
import { STAMP_FONT_SIZE, type Annotation } from '../../src/api/annotations';
import { movedBy, placeAt, textBox, visibleAnnotations } from '../../src/features/viewer/annotations/annotation-model';
import { annotateUnavailable, rotateUnavailable } from '../../src/features/viewer/annotations/use-annotations';
import { stampText, todayText, userWithoutDomain } from '../../src/features/viewer/annotations/stamp-text';

const evening = new Date(2026, 10, 27, 21, 5);
const morning = new Date(2026, 0, 3, 0, 7);

describe('stamp text', () => {
  it('@Today is the date and time in 12-hour am/pm form', () => {
    expect(todayText(evening, 'en-US')).toBe('11/27/2026 9:05 PM');
    expect(todayText(morning, 'en-US')).toBe('01/03/2026 12:07 AM');
    // The date follows the user's language; the clock stays 12-hour.
    expect(todayText(evening, 'de')).toBe('27.11.2026 9:05 PM');
    expect(stampText('RECEIVED @Today', { now: evening, locale: 'en-US', userName: 'jane' })).toEqual({ text: 'RECEIVED 11/27/2026 9:05 PM' });
  });
  it('@User is the user name without the domain', () => {
    expect(userWithoutDomain('CORP\\jane')).toBe('jane');
    expect(userWithoutDomain('jane')).toBe('jane');
    expect(userWithoutDomain(' a\\b\\jo ')).toBe('jo');
    expect(stampText('Reviewed by @User', { now: evening, locale: 'en', userName: 'EXAMPLE\\bob' })).toEqual({ text: 'Reviewed by bob' });
    expect(stampText('@User @User on @Today', { now: evening, locale: 'en-US', userName: 'bob' })).toEqual({ text: 'bob bob on 11/27/2026 9:05 PM' });
  });
  it('no user name: Unable to get current Username (only when the text needs it)', () => {
    for (const userName of [null, undefined, '', '  ', 'CORP\\']) expect(stampText('By @User', { now: evening, locale: 'en', userName })).toEqual({ error: 'STAMP_NO_USER' });
    expect(stampText('PAID', { now: evening, locale: 'en', userName: null })).toEqual({ text: 'PAID' });
  });
});

const server = (over: Partial<Annotation> = {}): Annotation => ({
  Id: 'a', Kind: 'text', Page: 1, X: 0.1, Y: 0.1, Width: 0.2, Height: 0.05, FontSize: 0.02, Text: 'Hi', Color: '#1a237e', CreatedBy: 'jane', Mine: true, CreatedAt: '2026-01-01T00:00:00Z', ...over,
});

describe('annotation model', () => {
  it('lays the pending changes over the server set, in order', () => {
    const base = [server(), server({ Id: 'b', Mine: false, CreatedBy: 'bob' })];
    const shown = visibleAnnotations(
      base,
      [
        { op: 'put', id: 'a', input: { Kind: 'text', Page: 1, X: 0.5, Y: 0.5, Width: 0.2, Height: 0.05, Text: 'Hi' } },
        { op: 'put', id: 'c', input: { Kind: 'stamp', Page: 2, X: 0, Y: 0, Width: 0.3, Height: 0.1, FontSize: STAMP_FONT_SIZE, Text: 'PAID' } },
        { op: 'delete', id: 'c' },
        { op: 'put', id: 'd', input: { Kind: 'stamp', Page: 2, X: 0, Y: 0, Width: 0.3, Height: 0.1, FontSize: STAMP_FONT_SIZE, Text: 'OK' } },
      ],
      'jane',
    );
    expect(shown.map((a) => [a.Id, a.X, a.Mine, a.CreatedBy])).toEqual([
      ['a', 0.5, true, 'jane'],
      ['b', 0.1, false, 'bob'],
      ['d', 0, true, 'jane'],
    ]);
    expect(shown.find((a) => a.Id === 'd')?.Text).toBe('OK');
  });
  it('sizes a box to its text and keeps it on the page', () => {
    const box = textBox('RECEIVED', STAMP_FONT_SIZE, 1.294, (l) => l.length * 0.6);
    expect(box.width).toBeCloseTo(STAMP_FONT_SIZE * (8 * 0.6 + 0.5), 6);
    expect(box.height).toBeGreaterThan(0);
    expect(textBox('a\nb\nc', 0.02, 1, () => 1).height).toBeGreaterThan(textBox('a', 0.02, 1, () => 1).height);
    expect(placeAt({ x: 0.95, y: 0.99 }, { width: 0.2, height: 0.1 })).toEqual({ X: 0.8, Y: 0.9 });
    expect(placeAt({ x: 0.3, y: 0.4 }, { width: 0.2, height: 0.1 })).toEqual({ X: 0.3, Y: 0.4 });
    expect(movedBy({ X: 0.1, Y: 0.1, Width: 0.2, Height: 0.1 }, -0.5, 2)).toEqual({ X: 0, Y: 0.9 });
  });
  it('says why a control is unavailable', () => {
    expect(annotateUnavailable(4, 0xffff)).toBe('DOCUMENTS_READ_ONLY_LICENCE');
    expect(annotateUnavailable(1, null)).toBe('VIEWER_RIGHTS_UNKNOWN');
    expect(annotateUnavailable(1, 1 | 1024)).toBe('VIEWER_NO_ANNOTATION_RIGHT');
    expect(annotateUnavailable(1, 1 | 2048)).toBeNull();
    expect(rotateUnavailable(1, 1 | 2048, true)).toBe('VIEWER_NO_EDIT_RIGHT');
    expect(rotateUnavailable(1, 1 | 1024, false)).toBe('VIEWER_ROTATE_OFFLINE');
    expect(rotateUnavailable(1, 1 | 1024, true)).toBeNull();
  });
});
