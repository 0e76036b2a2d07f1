import { formatSize } from '../../shared/ui/format';

/** The two pictures of a pass. */
export type ImageSlot = 'logo' | 'hero';

export const IMAGE_NAMES: Record<ImageSlot, string> = { logo: 'Logo', hero: 'Hero image' };

/** The picture types the server takes for a pass (it stores them as PNG, resized for the wallets). */
export const IMAGE_TYPES: Record<string, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP', 'image/gif': 'GIF' };
export const IMAGE_ACCEPT = Object.keys(IMAGE_TYPES).join(',');
/** A little under the server's 10 MiB, in the decimal megabytes people read. */
export const MAX_IMAGE_BYTES = 10_000_000;

/** What Google recommends (a hint, not a rule: smaller pictures are scaled up and may look soft). */
export const RECOMMENDED: Record<ImageSlot, { width: number; height: number; text: string }> = {
  logo: { width: 660, height: 660, text: 'a square at least 660 × 660 px' },
  hero: { width: 1032, height: 336, text: 'at least 1032 × 336 px (about 3:1)' },
};

/** A picture chosen on this device, not yet saved. */
export interface LocalImage {
  kind: 'local';
  blob: Blob;
  name: string;
  type: string;
  width: number;
  height: number;
}

/** A picture of the saved pass, as the server keeps it. */
export interface SavedImage {
  kind: 'saved';
  url: string;
  width: number;
  height: number;
}

export type PassImage = LocalImage | SavedImage;

/** Why this file cannot be the picture, or undefined when its type and size are right (checked before reading it). */
export function imageFileProblem(file: { name: string; type: string; size: number }, slot: ImageSlot): string | undefined {
  const name = file.name || 'The pasted file';
  const type = file.type === 'image/jpg' ? 'image/jpeg' : file.type;
  if (!IMAGE_TYPES[type]) {
    return `${IMAGE_NAMES[slot]}: "${name}" is not a PNG, JPEG, WebP or GIF picture${file.type ? ` (its type is ${file.type})` : ''}.`;
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return `${IMAGE_NAMES[slot]}: "${name}" is ${formatSize(file.size)}; a pass picture can be at most ${formatSize(MAX_IMAGE_BYTES)}.`;
  }
  if (file.size === 0) return `${IMAGE_NAMES[slot]}: "${name}" is empty.`;
  return undefined;
}

/** A hint when the picture is smaller than Google recommends, or undefined. */
export function imageSizeHint(image: { width: number; height: number }, slot: ImageSlot): string | undefined {
  const want = RECOMMENDED[slot];
  if (image.width >= want.width && image.height >= want.height) return undefined;
  return `${image.width} × ${image.height} px is small for a ${slot === 'logo' ? 'logo' : 'hero image'}: Google recommends ${want.text}.`;
}

/** Checks a file and reads its size in pixels (which also proves that it is a picture this browser reads). */
export async function readImage(file: File, slot: ImageSlot): Promise<LocalImage> {
  const problem = imageFileProblem(file, slot);
  if (problem) throw new Error(problem);
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch (error) {
    throw new Error(`${IMAGE_NAMES[slot]}: "${file.name || 'The pasted file'}" is not a picture this browser can read.`, { cause: error });
  }
  const { width, height } = bitmap;
  bitmap.close();
  const type = file.type === 'image/jpg' ? 'image/jpeg' : file.type;
  return {
    kind: 'local',
    blob: file,
    name: file.name || `${slot}.${IMAGE_TYPES[type]!.toLowerCase().replace('jpeg', 'jpg')}`,
    type,
    width,
    height,
  };
}
