/**
 * A line's width in ems in the stamp font (Arial, as the user-app spec §9 names it), measured once per text
 * on an offscreen canvas; where there is no canvas (tests), an average of 0.6 em a character.
 */
import { STAMP_FONT_FAMILY } from '../../../api/annotations';

const SIZE = 100;
let ctx: CanvasRenderingContext2D | null | undefined;

export function measureEm(line: string): number {
  if (ctx === undefined) {
    try {
      ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
      if (ctx) ctx.font = `${SIZE}px ${STAMP_FONT_FAMILY}, Helvetica, sans-serif`;
    } catch {
      ctx = null;
    }
  }
  if (!ctx) return line.length * 0.6;
  return ctx.measureText(line).width / SIZE;
}
