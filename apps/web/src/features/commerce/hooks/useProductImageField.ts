/**
 * The state of the product form's image field: an image chosen (picked, dropped or pasted) waits with
 * its preview until the product is saved, then is uploaded with progress; "Remove" drops what the
 * product shows (the save sends image null, which removes an uploaded image too); or an https URL.
 * `imageBody` is what the product save sends as `image`, `finish` what follows the save (the upload).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProductView } from '@tinkerdesk/contracts/web';
import { useEffect, useMemo, useState } from 'react';
import { errorText } from '../../../shared/api';
import { reload } from '../../../shared/query';
import { uploadProductImage } from '../image-api';
import { imageFileProblem, imageUploadText } from '../product-image-rules';
import { sellingKeys } from './selling';

type Choice = { kind: 'keep' } | { kind: 'file'; file: File } | { kind: 'remove' };

export function useProductImageField(guid: string, serviceId: string, existing: ProductView | undefined) {
  const client = useQueryClient();
  const linked = existing && !existing.images ? (existing.image ?? '') : '';
  const [url, setUrl] = useState(linked);
  const [choice, setChoice] = useState<Choice>({ kind: 'keep' });
  const [problem, setProblem] = useState('');
  const [progress, setProgress] = useState<number | null>(null);

  const preview = useMemo(() => (choice.kind === 'file' ? URL.createObjectURL(choice.file) : null), [choice]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const upload = useMutation({
    mutationFn: ({ productId, file }: { productId: string; file: File }) => uploadProductImage(productId, file, setProgress),
    onSettled: () => setProgress(null),
  });

  /** A file picked, dropped or pasted: kept for the save, or refused in plain words. */
  const choose = (file: File) => {
    const refusal = imageFileProblem(file);
    upload.reset();
    setProblem(refusal ?? '');
    if (!refusal) setChoice({ kind: 'file', file });
  };

  const drop = () => {
    upload.reset();
    setProblem('');
    setUrl('');
    setChoice({ kind: 'remove' });
  };

  /** What the form shows now: the chosen file, the uploaded image, or the URL. */
  const shown =
    choice.kind === 'file'
      ? preview
      : choice.kind === 'remove'
        ? url.trim() || null
        : (existing?.images?.small.url ?? (url.trim() || null));

  /** The `image` the product save sends: a URL typed or changed, null when removed, nothing to keep it. */
  const imageBody = (): string | null | undefined => {
    if (choice.kind === 'file') return undefined;
    const typed = url.trim();
    // Any image sent (a URL, or null) also removes an uploaded one.
    return choice.kind === 'remove' || typed !== linked ? typed || null : undefined;
  };

  /** After the product is saved: upload the chosen file (progress shown). False when that failed (the error is on the field). */
  const finish = async (productId: string): Promise<boolean> => {
    if (choice.kind !== 'file') return true;
    try {
      await upload.mutateAsync({ productId, file: choice.file });
      await reload(client, sellingKeys.products(guid, serviceId));
      setChoice({ kind: 'keep' });
      return true;
    } catch (error) {
      setProblem(imageUploadText(error, errorText));
      return false;
    }
  };

  return { url, setUrl, choose, drop, shown, problem, progress, imageBody, finish, busy: upload.isPending };
}
