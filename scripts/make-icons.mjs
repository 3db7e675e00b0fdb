// Generates the PWA icons in public/icons/ from public/icons/icon.svg with sharp.
// Run after changing the SVG: `node scripts/make-icons.mjs`; the PNGs are committed.
//
// "any" icons are the SVG as drawn (rounded square). "maskable" icons fill the whole square
// with the background colour and shrink the glyph into the safe zone (the centred circle of
// 80% diameter that every mask shape keeps), so no launcher mask crops it.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const iconsDir = fileURLToPath(new URL('../public/icons/', import.meta.url));
const svg = await readFile(`${iconsDir}icon.svg`, 'utf8');

const MASKABLE_GLYPH_SCALE = 0.72;

function maskableSvg(source) {
  const background = /<rect id="background"[^>]*\/>/;
  const glyph = /<g id="glyph"[\s\S]*?<\/g>/;
  if (!background.test(source) || !glyph.test(source)) {
    throw new Error('icon.svg must keep <rect id="background" .../> and <g id="glyph">...</g>');
  }
  return source
    .replace(background, (rect) => rect.replace(/\srx="[^"]*"/, ''))
    .replace(
      glyph,
      (g) =>
        `<g transform="translate(256 256) scale(${MASKABLE_GLYPH_SCALE}) translate(-256 -256)">${g}</g>`,
    );
}

const outputs = [
  { file: 'icon-192.png', size: 192, source: svg },
  { file: 'icon-512.png', size: 512, source: svg },
  { file: 'icon-maskable-192.png', size: 192, source: maskableSvg(svg) },
  { file: 'icon-maskable-512.png', size: 512, source: maskableSvg(svg) },
  { file: 'apple-touch-icon-180.png', size: 180, source: maskableSvg(svg) },
];

for (const { file, size, source } of outputs) {
  const png = await sharp(Buffer.from(source), { density: (72 * size) / 512 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
  await writeFile(`${iconsDir}${file}`, png);
  console.log(`${file} ${size}x${size} ${png.length} bytes`);
}
