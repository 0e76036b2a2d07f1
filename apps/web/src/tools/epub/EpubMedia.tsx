import type { EpubImage } from '@tinkerdesk/tools/epub';
import { useEffect, useMemo, type Dispatch } from 'react';
import { FileDrop } from '../../shared/ui/files';
import { formatSize } from '../../shared/ui/format';
import type { DraftAction } from './use-epub-draft';

function ImagePreview({ image }: { image: EpubImage }) {
  const url = useMemo(() => URL.createObjectURL(new Blob([image.bytes as BlobPart], { type: image.mediaType })), [image]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <img src={url} alt="" className="epub-thumb" />;
}

/** The book's cover and the images its chapters show: dropped or chosen, listed with a thumbnail, removed. */
export function EpubMedia({
  cover,
  images,
  onFiles,
  dispatch,
}: {
  cover: EpubImage | null;
  images: readonly EpubImage[];
  onFiles: (files: File[], asCover: boolean) => void;
  dispatch: Dispatch<DraftAction>;
}) {
  return (
    <div className="epub-media">
      <section aria-label="Cover" className="epub-box">
        <h2 className="pane-title">Cover</h2>
        {cover ? (
          <div className="epub-image-row">
            <ImagePreview image={cover} />
            <span>
              {cover.name} · {formatSize(cover.bytes.byteLength)}
            </span>
            <button type="button" className="button button-small" onClick={() => dispatch({ type: 'cover', image: null })}>
              Remove cover
            </button>
          </div>
        ) : (
          <FileDrop onFiles={(files) => onFiles(files, true)} accept="image/*" label="Choose cover">
            Drop the cover picture here
          </FileDrop>
        )}
      </section>
      <section aria-label="Images" className="epub-box">
        <h2 className="pane-title">Images</h2>
        <FileDrop onFiles={(files) => onFiles(files, false)} accept="image/*" multiple label="Choose images">
          Drop pictures for the chapters here
        </FileDrop>
        {images.length > 0 ? (
          <ul className="epub-images">
            {images.map((image) => (
              <li key={image.name} className="epub-image-row">
                <ImagePreview image={image} />
                <code>![]({image.name.replace(/ /g, '%20')})</code>
                <button type="button" className="button button-small" onClick={() => dispatch({ type: 'remove-image', image })}>
                  Remove {image.name}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="empty-state-text">
            Put an image in a chapter with ![description](file name) in Markdown or &lt;img src="file name"&gt; in HTML.
          </p>
        )}
      </section>
    </div>
  );
}
