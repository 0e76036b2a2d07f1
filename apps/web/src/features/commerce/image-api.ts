/**
 * Product images stored by the site (issue 29): the owner's upload (multipart, with progress). The
 * buyer side reads the URLs of the product view (ProductImage).
 */
import type { ApiPath } from '@tinkerdesk/api-client';
import type { ProductView, ResponseMap } from '@tinkerdesk/contracts/web';
import { postFormWithProgress } from '../../shared/upload';

const UPLOAD_PATH = '/v1/products/{id}/image' satisfies ApiPath;

/** Uploads the product's image (it replaces the one before); resolves with the product as it is now. */
export async function uploadProductImage(productId: string, file: Blob, onProgress: (fraction: number) => void): Promise<ProductView> {
  const form = new FormData();
  form.set('image', file, file instanceof File ? file.name : 'image');
  const body = await postFormWithProgress(UPLOAD_PATH.replace('{id}', encodeURIComponent(productId)), form, { expect: 200, onProgress });
  return (body as ResponseMap['Product']).product;
}
