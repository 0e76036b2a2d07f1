import { isTwoDimensional } from '@tinkerdesk/tools/barcode';
import { contrastingText } from '@tinkerdesk/tools/wallet-pass';
import type { CSSProperties } from 'react';
import { HEX_COLOR, type PassFields } from './draft';
import { useImageUrl } from './image-url';
import type { ImageSlot, PassImage } from './images';

/**
 * The pass as Google Wallet shows a generic pass: a rounded card in the background colour with text
 * that contrasts with it, the logo in a circle beside the card title, the subheader above the header,
 * the text rows in columns, the barcode on white with its alternate text, the hero image at the bottom.
 */
export function PassPreview({
  fields,
  images,
  barcode,
  busy,
}: {
  fields: PassFields;
  images: Partial<Record<ImageSlot, PassImage>>;
  /** The drawn barcode (an image URL) or why it could not be drawn. */
  barcode: { url?: string; error?: string } | null;
  busy: boolean;
}) {
  const background = HEX_COLOR.test(fields.backgroundColor) ? fields.backgroundColor : '#4f46e5';
  const logo = useImageUrl(images.logo);
  const hero = useImageUrl(images.hero);
  const style = { '--pass-bg': background, '--pass-fg': contrastingText(background) } as CSSProperties;
  const initial = [...(fields.cardTitle || '?')][0]!.toUpperCase();
  return (
    <figure className="wallet-preview" aria-label="Preview" aria-busy={busy}>
      <div className="wallet-card" style={style} data-testid="wallet-card">
        <div className="wallet-card-top">
          <span className="wallet-logo">{logo ? <img src={logo} alt="Logo" /> : <span aria-hidden="true">{initial}</span>}</span>
          <span className="wallet-card-title">{fields.cardTitle || 'Card title'}</span>
        </div>
        <div className="wallet-rule" />
        {fields.subheader ? <p className="wallet-subheader">{fields.subheader}</p> : null}
        <p className="wallet-header">{fields.header || 'Header'}</p>
        {fields.textRows.length > 0 ? (
          <dl className="wallet-rows">
            {fields.textRows.map((row, i) => (
              <div key={i} className="wallet-row">
                <dt>{row.header}</dt>
                <dd>{row.body}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {fields.barcode ? (
          <div className="wallet-barcode">
            <div className={isTwoDimensional(fields.barcode.type) ? 'wallet-barcode-box square' : 'wallet-barcode-box'}>
              {barcode?.url && !barcode.error ? (
                <img src={barcode.url} alt={`Barcode of ${fields.barcode.value}`} />
              ) : (
                <span className="wallet-barcode-missing">{barcode?.error ? 'The barcode cannot be drawn' : 'Drawing…'}</span>
              )}
              {fields.barcode.alternateText ? <span className="wallet-barcode-text">{fields.barcode.alternateText}</span> : null}
            </div>
          </div>
        ) : null}
        {hero ? <img className="wallet-hero" src={hero} alt="Hero image" /> : null}
      </div>
      <figcaption className="text-pane-info">
        How Google Wallet shows the pass (approximately; the phone decides fonts and sizes).
      </figcaption>
    </figure>
  );
}
