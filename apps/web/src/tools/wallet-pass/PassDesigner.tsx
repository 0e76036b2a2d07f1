import type { WalletBarcodeType } from '@tinkerdesk/tools/wallet-pass';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { formatSize } from '../../shared/ui/format';
import { FileDrop } from '../../shared/ui/files';
import { HEX_COLOR, isWalletBarcode, LIMITS, moveItem, rowKey, type DraftField, type PassDraft } from './draft';
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

export interface BarcodeChoice {
  /** The bwip-js id (what the barcode creator draws). */
  bcid: WalletBarcodeType;
  /** What the select shows. */
  label: string;
}

type Errors = Partial<Record<DraftField, string>>;

/** The labelled text field of the designer, with its error under it (announced, tied by aria-describedby). */
function TextField({
  id,
  label,
  value,
  onChange,
  error,
  max,
  required,
  hint,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  max?: number;
  required?: boolean;
  hint?: string;
  placeholder?: string;
}) {
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? null : <span className="wallet-optional"> (optional)</span>}
      </label>
      <input
        id={id}
        type="text"
        value={value}
        maxLength={max !== undefined ? max + 20 : undefined}
        required={required}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint ? (
        <span className="wallet-hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <fieldset className={className ? `wallet-section ${className}` : 'wallet-section'}>
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
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
  const rows = draft.textRows;
  const focusRow = useRef<string | null>(null);
  useEffect(() => {
    if (focusRow.current) document.getElementById(focusRow.current)?.focus();
    focusRow.current = null;
  }, [rows]);

  const setRow = (key: string, patch: { header?: string; body?: string }) =>
    onChange({ textRows: rows.map((r) => (r.key === key ? { ...r, ...patch } : r)) });
  const move = (from: number, to: number, key: string, direction: 'up' | 'down') => {
    // The focus stays on the button that moved the row (or its other button at an end of the list).
    const end = (direction === 'up' && to === 0) || (direction === 'down' && to === rows.length - 1);
    focusRow.current = `wallet-row-${key}-${end ? (direction === 'up' ? 'down' : 'up') : direction}`;
    onChange({ textRows: moveItem(rows, from, to) });
  };
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

      <Section title="Text rows">
        <p className="wallet-hint wallet-rows-hint">
          {rows.length === 0 ? 'No rows. ' : ''}Each row shows a value under a small label (such as Points and 120); the label is optional.
        </p>
        <ol className="wallet-row-list">
          {rows.map((row, i) => {
            const error = errors[`row-${row.key}`];
            const headerBad = Boolean(error) && [...row.header.trim()].length > LIMITS.rowHeader;
            const bodyBad = Boolean(error) && !headerBad;
            const described = error ? `wallet-row-${row.key}-error` : undefined;
            return (
              <li key={row.key} className="wallet-row-edit">
                <fieldset>
                  <legend className="visually-hidden">Row {i + 1}</legend>
                  <div className="field">
                    <label htmlFor={`wallet-row-${row.key}-header`}>Row {i + 1} label</label>
                    <input
                      id={`wallet-row-${row.key}-header`}
                      type="text"
                      value={row.header}
                      aria-invalid={headerBad || undefined}
                      aria-describedby={headerBad ? described : undefined}
                      onChange={(e) => setRow(row.key, { header: e.target.value })}
                    />
                  </div>
                  <div className="field">
                    <label htmlFor={`wallet-row-${row.key}-body`}>Row {i + 1} value</label>
                    <input
                      id={`wallet-row-${row.key}-body`}
                      type="text"
                      value={row.body}
                      aria-invalid={bodyBad || undefined}
                      aria-describedby={bodyBad ? described : undefined}
                      onChange={(e) => setRow(row.key, { body: e.target.value })}
                    />
                  </div>
                  <div className="wallet-row-actions">
                    <button
                      type="button"
                      id={`wallet-row-${row.key}-up`}
                      className="button button-small"
                      onClick={() => move(i, i - 1, row.key, 'up')}
                      disabled={i === 0}
                      aria-label={`Move row ${i + 1} up`}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      id={`wallet-row-${row.key}-down`}
                      className="button button-small"
                      onClick={() => move(i, i + 1, row.key, 'down')}
                      disabled={i === rows.length - 1}
                      aria-label={`Move row ${i + 1} down`}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => {
                        const next = rows[i + 1] ?? rows[i - 1];
                        focusRow.current = next ? `wallet-row-${next.key}-header` : 'wallet-add-row';
                        onChange({ textRows: rows.filter((r) => r.key !== row.key) });
                      }}
                      aria-label={`Remove row ${i + 1}`}
                    >
                      Remove
                    </button>
                  </div>
                  {error ? (
                    <span className="field-error" id={`wallet-row-${row.key}-error`}>
                      {error}
                    </span>
                  ) : null}
                </fieldset>
              </li>
            );
          })}
        </ol>
        <p className="wallet-add-row">
          <button
            type="button"
            id="wallet-add-row"
            className="button button-small"
            disabled={rows.length >= LIMITS.textRows}
            onClick={() => {
              const key = rowKey();
              focusRow.current = `wallet-row-${key}-header`;
              onChange({ textRows: [...rows, { key, header: '', body: '' }] });
            }}
          >
            Add row
          </button>
          <span className="wallet-hint">
            {rows.length} of {LIMITS.textRows} rows
          </span>
        </p>
      </Section>

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

/** One picture of the pass: drop, paste (while the zone has the focus) or choose it; checked here; a thumbnail and Remove once set. */
function ImageField({ slot, image, onImage }: { slot: ImageSlot; image?: PassImage; onImage: (image: PassImage | undefined) => void }) {
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
