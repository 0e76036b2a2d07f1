import type { ConversionOptions } from './use-conversions';

const FIELDS: Array<[keyof ConversionOptions, string]> = [
  ['width', 'Image width (px)'],
  ['height', 'Image height (px)'],
  ['quality', 'Image quality (1–100)'],
  ['dpi', 'PDF resolution (DPI)'],
  ['firstPage', 'PDF first page'],
  ['lastPage', 'PDF last page'],
];

export const DEFAULT_OPTIONS: ConversionOptions = { width: '', height: '', quality: '', dpi: '150', firstPage: '', lastPage: '' };

/** The options of image and PDF conversions (each job takes those of its kind). */
export function OptionsPanel({
  options,
  onChange,
}: {
  options: ConversionOptions;
  onChange: (key: keyof ConversionOptions, value: string) => void;
}) {
  return (
    <details className="tool-options">
      <summary>Options</summary>
      <div className="tool-form" role="group" aria-label="Options">
        {FIELDS.map(([key, label]) => (
          <div className="field" key={key}>
            <label htmlFor={`opt-${key}`}>{label}</label>
            <input
              id={`opt-${key}`}
              type="number"
              min={key === 'dpi' ? 36 : 1}
              max={key === 'quality' ? 100 : key === 'dpi' ? 600 : 10000}
              value={options[key]}
              onChange={(e) => onChange(key, e.target.value)}
            />
          </div>
        ))}
      </div>
    </details>
  );
}
