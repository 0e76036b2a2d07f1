import { useRef, useState } from 'react';
import { FileDrop } from '../../shared/ui/files';
import { formatSize } from '../../shared/ui/format';
import { useImageUrl } from './image-url';
import {
  IMAGE_ACCEPT,
  IMAGE_NAMES,
  imageSizeHint,
  MAX_IMAGE_BYTES,
  readImage,
  RECOMMENDED,
  type ImageSlot,
  type PassImage,
} from './images';

/** One picture of the pass: drop, paste (while the zone has the focus) or choose it; checked here; a thumbnail and Remove once set. */
export function ImageField({
  slot,
  image,
  onImage,
}: {
  slot: ImageSlot;
  image?: PassImage;
  onImage: (image: PassImage | undefined) => void;
}) {
  const [error, setError] = useState('');
  const url = useImageUrl(image);
  const name = IMAGE_NAMES[slot];
  const hint = image ? imageSizeHint(image, slot) : undefined;
  const group = useRef<HTMLDivElement>(null);
  async function take(files: File[]) {
    const file = files[0];
    if (!file) return;
    try {
      onImage(await readImage(file, slot));
      setError('');
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }
  return (
    <div className="wallet-image" role="group" aria-labelledby={`wallet-${slot}-title`} ref={group}>
      <h3 className="wallet-image-title" id={`wallet-${slot}-title`}>
        {name} <span className="wallet-optional">(optional)</span>
      </h3>
      {image && url ? (
        <div className="wallet-image-row">
          <img src={url} alt={`${name} thumbnail`} className={slot === 'logo' ? 'wallet-thumb round' : 'wallet-thumb'} />
          <span className="wallet-image-info">
            <span>{image.kind === 'local' ? image.name : 'Saved with the pass'}</span>
            <span className="wallet-hint">
              {image.width} × {image.height} px{image.kind === 'local' ? ` · ${formatSize(image.blob.size)}` : ''}
            </span>
            {hint ? <span className="wallet-hint">{hint}</span> : null}
            <span>
              <button
                type="button"
                className="button button-small"
                onClick={() => {
                  onImage(undefined);
                  setError('');
                  // The focus goes to the drop zone's button that takes its place.
                  requestAnimationFrame(() => group.current?.querySelector<HTMLButtonElement>('.file-drop button')?.focus());
                }}
                aria-label={`Remove ${name.toLowerCase()}`}
              >
                Remove
              </button>
            </span>
          </span>
        </div>
      ) : (
        <FileDrop
          onFiles={(files) => void take(files)}
          accept={IMAGE_ACCEPT}
          label={`Choose ${name.toLowerCase()}`}
          fromUrl={false}
          paste="zone"
        >
          Drop or paste a picture
        </FileDrop>
      )}
      {image ? null : (
        <span className="wallet-hint">
          To paste, click the box first. Recommended: {RECOMMENDED[slot].text}; at most {formatSize(MAX_IMAGE_BYTES)}.
        </span>
      )}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
