import { useEffect, useMemo } from 'react';

/** Whether BlobPreview can show this media type. */
export function canPreview(mediaType: string): boolean {
  return /^(image|audio|video)\//.test(mediaType);
}

/**
 * Shows an image, audio or video held in a Blob, through a blob: URL released when it goes. Images go
 * in an <img>, where even an SVG cannot run scripts or load anything.
 */
export function BlobPreview({ blob, mediaType, label }: { blob: Blob; mediaType: string; label: string }) {
  const url = useMemo(() => URL.createObjectURL(blob), [blob]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  if (mediaType.startsWith('image/')) return <img className="result-preview" src={url} alt={label} />;
  if (mediaType.startsWith('audio/')) return <audio className="result-preview" src={url} controls aria-label={label} />;
  if (mediaType.startsWith('video/')) return <video className="result-preview" src={url} controls aria-label={label} />;
  return null;
}
