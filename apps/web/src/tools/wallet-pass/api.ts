/** The wallet pass tool's calls of /v1/passes, through the typed client with the user's token. */
import { LIST_COUNT_HEADER, type PassSort, type PassView, type SortDirection } from '@tinkerdesk/contracts/web';
import { anonymous, unwrap, v1 } from '../../shared/api';
import type { PassFields } from './draft';
import type { ImageSlot } from './images';

export { PASS_SORTS, type PassSort, type PassView, type SortDirection } from '@tinkerdesk/contracts/web';

/** Creates the pass with this id (made here) or updates it: fields, new pictures, and the pictures to drop. */
export async function savePass(
  id: string,
  fields: PassFields,
  files: Partial<Record<ImageSlot, Blob>>,
  remove: ImageSlot[],
): Promise<{ pass: PassView; created: boolean }> {
  const call = v1.POST('/v1/passes/{id}', {
    params: { path: { id } },
    body: { pass: JSON.stringify(fields), ...(remove.length > 0 ? { remove: remove.join(',') } : {}) },
    // Multipart: the fields, and the pictures as files (the browser writes the boundary).
    bodySerializer: (body) => {
      const form = new FormData();
      form.set('pass', body.pass);
      if (body.remove) form.set('remove', body.remove);
      for (const slot of ['logo', 'hero'] as const) {
        const file = files[slot];
        if (file) form.set(slot, file, file instanceof File && file.name ? file.name : slot);
      }
      return form;
    },
  });
  const answer = await unwrap(call);
  // 201 Created for a new pass, 200 when it replaced the one with this id.
  return { pass: answer.pass, created: (await call).response.status === 201 };
}

/** A page of the user's passes, and how many there are in all (the x-list-count header). */
export async function listPasses(query: {
  limit: number;
  offset: number;
  sort: PassSort;
  dir: SortDirection;
}): Promise<{ passes: PassView[]; total: number }> {
  const call = v1.GET('/v1/passes/google', { params: { query } });
  const { passes } = await unwrap(call);
  const header = (await call).response.headers.get(LIST_COUNT_HEADER);
  const total = header !== null && /^\d+$/.test(header) ? Number(header) : query.offset + passes.length;
  return { passes, total };
}

export const getPass = (id: string) => unwrap(v1.GET('/v1/passes/{id}', { params: { path: { id } } })).then((a) => a.pass);

export const deletePass = (id: string) => unwrap(v1.DELETE('/v1/passes/{id}', { params: { path: { id } } }));

/** The "Add to Google Wallet" link of a saved pass, or what the site operator must configure for one. */
export const googleLink = (id: string) => unwrap(v1.GET('/v1/passes/{id}/google', { params: { path: { id } } }));

/** The Apple Wallet .pkpass of a saved pass. */
export const applePass = (id: string) => unwrap(v1.GET('/v1/passes/{id}/apple', { params: { path: { id } }, parseAs: 'blob' }));

/** Which wallets this site is set up for (no sign-in needed). */
export const walletStatus = () => unwrap(anonymous.GET('/v1/passes/wallets'));
