/**
 * The annotations the viewer shows, as pure functions: the server's set with the user's changes not
 * yet confirmed laid over it (outbox entries of the annotation kind, in order), the box a text needs,
 * and where a box goes when placed or moved (always wholly on the page). Positions and sizes are
 * fractions of the page; font sizes fractions of its width (src/api/annotations.ts).
 */
import { ANNOTATION_LINE_HEIGHT, ANNOTATION_PADDING, type Annotation, type AnnotationInput } from '../../../api/annotations';

/** One change the user made, as the outbox keeps it: an annotation put (added or moved), or removed. */
export type AnnotationChange = { op: 'put'; id: string; input: AnnotationInput } | { op: 'delete'; id: string };

/**
 * What to draw: the server's annotations, then each pending change in order (a put replaces or adds
 * one of the user's own, a delete removes it). The changes are the user's own, so what they add is
 * theirs (Mine).
 */
export function visibleAnnotations(server: readonly Annotation[], changes: readonly AnnotationChange[], me: string | null): Annotation[] {
  const byId = new Map(server.map((a) => [a.Id, a]));
  for (const c of changes) {
    if (c.op === 'delete') {
      byId.delete(c.id);
      continue;
    }
    const before = byId.get(c.id);
    byId.set(c.id, {
      Id: c.id,
      CreatedBy: before?.CreatedBy ?? me,
      CreatedAt: before?.CreatedAt ?? '',
      Mine: true,
      FontSize: 0,
      Text: '',
      Color: '',
      ...before,
      ...c.input,
    } as Annotation);
  }
  return [...byId.values()];
}

/** A box's size as page fractions for `text` at `fontSize` (of the page's width); `measure` gives a line's width in ems. */
export function textBox(text: string, fontSize: number, aspect: number, measure: (line: string) => number): { width: number; height: number } {
  const lines = text.split('\n');
  const em = Math.max(...lines.map(measure), 0.5);
  const width = Math.min(1, fontSize * (em + 2 * ANNOTATION_PADDING));
  // Heights are fractions of the page's height: a page twice as tall as wide halves them.
  const height = Math.min(1, (fontSize * (lines.length * ANNOTATION_LINE_HEIGHT + 2 * ANNOTATION_PADDING - (ANNOTATION_LINE_HEIGHT - 1))) / aspect);
  return { width, height };
}

const clamp = (v: number, size: number) => Math.min(Math.max(0, v), Math.max(0, 1 - size));

/** The box's top-left when the user taps at `at` (the tap is its top-left, moved in to fit the page). */
export function placeAt(at: { x: number; y: number }, box: { width: number; height: number }): { X: number; Y: number } {
  return { X: clamp(at.x, box.width), Y: clamp(at.y, box.height) };
}

/** An annotation moved by dx, dy (page fractions), still wholly on the page. */
export function movedBy(a: Pick<Annotation, 'X' | 'Y' | 'Width' | 'Height'>, dx: number, dy: number): { X: number; Y: number } {
  return { X: clamp(a.X + dx, a.Width), Y: clamp(a.Y + dy, a.Height) };
}

/** The wire input of an annotation (to put it again, moved). */
export function inputOf(a: Annotation, over: Partial<AnnotationInput> = {}): AnnotationInput {
  return { Kind: a.Kind, Page: a.Page, X: a.X, Y: a.Y, Width: a.Width, Height: a.Height, FontSize: a.FontSize, Text: a.Text, Color: a.Color, ...over };
}
