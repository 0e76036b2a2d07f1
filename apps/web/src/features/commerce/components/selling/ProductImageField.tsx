import { useState } from 'react';
import { FileDrop } from '../../../../shared/ui/files';
import type { useProductImageField } from '../../hooks/useProductImageField';

/** The product form's image: pick, drop or paste a picture (uploaded on save), remove it, or give an https URL. */
export function ProductImageField({ id, field }: { id: string; field: ReturnType<typeof useProductImageField> }) {
  const errorId = `product-${id}-image-error`;
  return (
    <fieldset className="fieldset product-image-field" aria-describedby={field.problem ? errorId : undefined}>
      <legend>Image (optional)</legend>
      {field.shown ? (
        <div className="product-image-preview">
          <Preview key={field.shown} src={field.shown} />
          <button type="button" className="button button-ghost" onClick={field.drop} disabled={field.busy}>
            Remove image
          </button>
        </div>
      ) : null}
      <FileDrop
        onFiles={(files) => files[0] && field.choose(files[0])}
        accept="image/png,image/jpeg,image/webp,image/gif"
        label="Choose an image"
        fromUrl={false}
      >
        Drop a picture here or paste one (PNG, JPEG, WebP or GIF, up to 10 MB)
      </FileDrop>
      {field.progress !== null ? <progress max={1} value={field.progress} aria-label="Uploading the image" /> : null}
      {field.problem ? (
        <p id={errorId} className="field-error" role="alert">
          {field.problem}
        </p>
      ) : null}
      <label htmlFor={`product-${id}-image`}>Or an image URL (https)</label>
      <input id={`product-${id}-image`} type="url" value={field.url} onChange={(e) => field.setUrl(e.target.value)} />
    </fieldset>
  );
}

/** The preview; a URL that does not load says so instead of a broken frame. */
function Preview({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <p className="muted">This image does not load: check the URL.</p>;
  return <img src={src} alt="Preview of the product image" width={160} height={90} onError={() => setFailed(true)} />;
}
