import { useEffect, useMemo } from 'react';
import type { PassImage } from './images';

/** Where the page shows a pass picture from: a blob: URL for one chosen here (released when it goes), the server's URL for a saved one. */
export function useImageUrl(image: PassImage | undefined): string | undefined {
  const blob = image?.kind === 'local' ? image.blob : undefined;
  const local = useMemo(() => (blob ? URL.createObjectURL(blob) : undefined), [blob]);
  useEffect(() => () => (local ? URL.revokeObjectURL(local) : undefined), [local]);
  return image?.kind === 'saved' ? image.url : local;
}
