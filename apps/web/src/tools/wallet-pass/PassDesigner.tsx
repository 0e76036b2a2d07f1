import type { WalletBarcodeType } from '@tinkerdesk/tools/wallet-pass';
import { HEX_COLOR, isWalletBarcode, LIMITS, type PassDraft } from './draft';
import { Section, TextField, type Errors } from './DesignerFields';
import { ImageField } from './ImageField';
import type { ImageSlot, PassImage } from './images';
import { TextRowsEditor } from './TextRowsEditor';

export interface BarcodeChoice {
  /** The bwip-js id (what the barcode creator draws). */
  bcid: WalletBarcodeType;
  /** What the select shows. */
  label: string;
}

/** The form of the pass: its texts, rows, barcode, colour and pictures. Every change goes up at once (the preview follows). */
export function PassDesigner({
  draft,
  onChange,
  errors,
  barcodeError,
  barcodes,
  images,
  onImage,
}: {
  draft: PassDraft;
  onChange: (patch: Partial<PassDraft>) => void;
  errors: Errors;
  /** Why the barcode's data cannot be drawn in its type (from the barcode creator's renderer). */
  barcodeError?: string;
  barcodes: readonly BarcodeChoice[];
  images: Partial<Record<ImageSlot, PassImage>>;
  onImage: (slot: ImageSlot, image: PassImage | undefined) => void;
}) {
  const barcodeValueError = errors.barcodeValue ?? (draft.withBarcode && draft.barcodeValue ? barcodeError : undefined);

  return (
    <div className="wallet-designer">
      <Section title="Card">
        <div className="wallet-fields">
          <TextField
            id="wallet-cardTitle"
            label="Card title"
            value={draft.cardTitle}
            onChange={(cardTitle) => onChange({ cardTitle })}
            error={errors.cardTitle}
            max={LIMITS.cardTitle}
            required
            hint="Your business or programme, beside the logo."
          />
          <TextField
            id="wallet-header"
            label="Header"
            value={draft.header}
            onChange={(header) => onChange({ header })}
            error={errors.header}
            max={LIMITS.header}
            required
            hint="The large text of the pass."
          />
          <TextField
            id="wallet-subheader"
            label="Subheader"
            value={draft.subheader}
            onChange={(subheader) => onChange({ subheader })}
            error={errors.subheader}
            max={LIMITS.subheader}
            hint="A small line above the header."
          />
          <div className="field">
            <label htmlFor="wallet-color-text">Background colour</label>
            <span className="wallet-color">
              <input
                type="color"
                aria-label="Background colour picker"
                value={HEX_COLOR.test(draft.backgroundColor) ? draft.backgroundColor.toLowerCase() : '#000000'}
                onChange={(e) => onChange({ backgroundColor: e.target.value })}
              />
              <input
                id="wallet-color-text"
                type="text"
                value={draft.backgroundColor}
                spellCheck={false}
                autoComplete="off"
                maxLength={7}
                aria-invalid={errors.backgroundColor ? true : undefined}
                aria-describedby={errors.backgroundColor ? 'wallet-color-error' : undefined}
                onChange={(e) => {
                  // The picker follows as soon as the text is a colour.
                  const raw = e.target.value.trim();
                  onChange({ backgroundColor: (raw.startsWith('#') ? raw : `#${raw}`).toLowerCase() });
                }}
              />
            </span>
            {errors.backgroundColor ? (
              <span className="field-error" id="wallet-color-error">
                {errors.backgroundColor}
              </span>
            ) : null}
          </div>
        </div>
      </Section>

      <TextRowsEditor rows={draft.textRows} errors={errors} onChange={(textRows) => onChange({ textRows })} />

      <Section title="Barcode">
        <label className="checkbox-label">
          <input type="checkbox" checked={draft.withBarcode} onChange={(e) => onChange({ withBarcode: e.target.checked })} />
          Show a barcode on the pass
        </label>
        {draft.withBarcode ? (
          <div className="wallet-fields">
            <div className="field">
              <label htmlFor="wallet-barcode-type">Barcode type</label>
              <select
                id="wallet-barcode-type"
                value={draft.barcodeType}
                onChange={(e) => isWalletBarcode(e.target.value) && onChange({ barcodeType: e.target.value })}
              >
                {barcodes.map((b) => (
                  <option key={b.bcid} value={b.bcid}>
                    {b.label}
                  </option>
                ))}
              </select>
            </div>
            <TextField
              id="wallet-barcode-value"
              label="Barcode value"
              value={draft.barcodeValue}
              onChange={(barcodeValue) => onChange({ barcodeValue })}
              error={barcodeValueError}
              required
              hint="What a scanner reads."
            />
            <TextField
              id="wallet-alternateText"
              label="Alternate text"
              value={draft.alternateText}
              onChange={(alternateText) => onChange({ alternateText })}
              error={errors.alternateText}
              max={LIMITS.alternateText}
              hint="Shown under the barcode, for reading it out."
            />
          </div>
        ) : null}
      </Section>

      <Section title="Images" className="wallet-images">
        <ImageField slot="logo" image={images.logo} onImage={(image) => onImage('logo', image)} />
        <ImageField slot="hero" image={images.hero} onImage={(image) => onImage('hero', image)} />
      </Section>
    </div>
  );
}
