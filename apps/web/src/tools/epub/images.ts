import { EPUB_IMAGE_TYPES, type EpubImage } from '@tinkerdesk/tools/epub';

/** Files larger than this are refused as book images. */
export const MAX_IMAGE = 20 * 1024 * 1024;

/**
 * A dropped picture as a book image: JPEG, PNG, GIF and SVG as they are; other pictures the browser can
 * read (WebP, AVIF, BMP ...) converted to PNG, since not every e-reader shows them.
 */
export async function toBookImage(file: File): Promise<EpubImage> {
  if (file.size > MAX_IMAGE) throw new Error(`"${file.name}" is larger than 20 MB.`);
  const type = file.type === 'image/jpg' ? 'image/jpeg' : file.type;
  if (EPUB_IMAGE_TYPES[type]) return { name: file.name, mediaType: type, bytes: new Uint8Array(await file.arrayBuffer()) };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch (error) {
    throw new Error(`"${file.name}" is not a picture this browser can read.`, { cause: error });
  }
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  bitmap.close();
  const png = await canvas.convertToBlob({ type: 'image/png' });
  return { name: file.name.replace(/\.[^.]+$/, '') + '.png', mediaType: 'image/png', bytes: new Uint8Array(await png.arrayBuffer()) };
}
