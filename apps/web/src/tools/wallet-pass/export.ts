import { GOOGLE_ISSUER_PLACEHOLDER, googleGenericClass, googleGenericObject } from '@tinkerdesk/tools/wallet-pass';
import type { PassFields } from './draft';
import type { ImageSlot, PassImage } from './images';

/** The suffix of the class of the passes made here (Google ids are "<issuerId>.<suffix>"). */
export const GOOGLE_CLASS_SUFFIX = 'tinkerdesk_generic';

/**
 * The pass as Google's REST resources, built by the shared builders (the server signs the same): a
 * GenericClass and a GenericObject under a placeholder issuer id to replace with yours. Pictures have
 * URLs only once they are saved (Google fetches them from the site); unsaved ones are left out.
 */
export function googleJson(fields: PassFields, id: string, images: Partial<Record<ImageSlot, PassImage>>, origin: string): string {
  const issuerId = GOOGLE_ISSUER_PLACEHOLDER;
  const genericClass = googleGenericClass(issuerId, GOOGLE_CLASS_SUFFIX);
  const url = (image: PassImage | undefined) => (image?.kind === 'saved' ? new URL(image.url, origin).href : undefined);
  const logoUrl = url(images.logo);
  const heroUrl = url(images.hero);
  const genericObject = googleGenericObject(fields, {
    issuerId,
    objectSuffix: id,
    classId: genericClass.id,
    ...(logoUrl ? { logoUrl } : {}),
    ...(heroUrl ? { heroUrl } : {}),
  });
  return `${JSON.stringify({ genericClass, genericObject }, null, 2)}\n`;
}
