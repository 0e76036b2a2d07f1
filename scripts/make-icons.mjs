// Makes the web app's PNG icons (apps/web/public/icons/) from its logo (apps/web/public/logo.svg).
// Run it again after the logo changes: `node scripts/make-icons.mjs`; the files are committed.
//   icon-192.png, icon-512.png  the logo as it is (purpose "any" in the manifest; icon-192 is also
//                               the push notifications' icon, PUSH_ICON in libs/contracts)
//   maskable-512.png            the logo full-bleed (square corners): the platform cuts its own shape,
//                               and the glyph lies within the central safe circle (radius 40 %)
//   apple-touch-icon.png        180 px, full-bleed too (iOS rounds the corners itself)
//   badge-72.png                the glyph alone, white on transparent: Android draws a notification's
//                               badge from its alpha channel only (PUSH_BADGE)
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = fileURLToPath(new URL('../apps/web/public/', import.meta.url));
const logo = readFileSync(`${publicDir}logo.svg`, 'utf8');
const LOGO_SIZE = 64; // the logo's viewBox is 0 0 64 64

const fullBleed = logo.replace(/rx="[^"]*"/, 'rx="0"');
// No background square, every shape white, and the view narrowed to the glyph (x 16-51, y 20-49) with a margin.
const glyph = logo
  .replace(/<rect[^>]*\/>/, '')
  .replace(/fill="#[0-9a-fA-F]{3,8}"/g, 'fill="#fff"')
  .replace(/viewBox="[^"]*"/, 'viewBox="12 13 43 43"');

/** Renders an SVG at exactly size x size pixels (at a density that needs no scaling of the raster). */
async function render(svg, size, file, viewBoxSize = LOGO_SIZE) {
  await sharp(Buffer.from(svg), { density: (72 * size) / viewBoxSize })
    .resize(size, size)
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toFile(`${publicDir}icons/${file}`);
  console.log(`apps/web/public/icons/${file}`);
}

mkdirSync(`${publicDir}icons`, { recursive: true });
await render(logo, 192, 'icon-192.png');
await render(logo, 512, 'icon-512.png');
await render(fullBleed, 512, 'maskable-512.png');
await render(fullBleed, 180, 'apple-touch-icon.png');
await render(glyph, 72, 'badge-72.png', 43);
