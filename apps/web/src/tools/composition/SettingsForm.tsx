import type { Layout } from './draw';
import type { CompositionSettings, UpdateSettings } from './settings';

const PRESETS = [
  { label: '1600 × 1200', width: 1600, height: 1200 },
  { label: 'Square 1080', width: 1080, height: 1080 },
  { label: 'HD 1920 × 1080', width: 1920, height: 1080 },
  { label: 'Story 1080 × 1920', width: 1080, height: 1920 },
  { label: 'A4 at 150 DPI', width: 1240, height: 1754 },
];

/** A whole number between min and max (what is typed outside is brought inside). */
export function NumberField({
  id,
  label,
  value,
  min,
  max,
  onChange,
}: {
  id: string;
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (v: number) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={min}
        max={max}
        value={value}
        onChange={(e) => {
          const n = Math.round(Number(e.target.value));
          if (Number.isFinite(n)) onChange(Math.min(max, Math.max(min, n)));
        }}
      />
    </div>
  );
}

/** Layout, columns, size, spacing, corners and background of the composition. */
export function SettingsForm({ settings, update, layout }: { settings: CompositionSettings; update: UpdateSettings; layout: Layout }) {
  return (
    <div className="tool-form" role="group" aria-label="Composition settings">
      <div className="field">
        <label htmlFor="comp-layout">Layout</label>
        <select id="comp-layout" value={settings.layout} onChange={(e) => update({ layout: e.target.value as 'grid' | 'free' })}>
          <option value="grid">Grid</option>
          <option value="free">Free</option>
        </select>
      </div>
      {settings.layout === 'grid' ? (
        <div className="field">
          <label htmlFor="comp-cols">Columns</label>
          <select id="comp-cols" value={settings.cols} onChange={(e) => update({ cols: Number(e.target.value) })}>
            <option value={0}>Automatic</option>
            {[1, 2, 3, 4, 5, 6, 7, 8].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="comp-preset">Size</label>
        <select
          id="comp-preset"
          value={PRESETS.find((p) => p.width === settings.width && p.height === settings.height)?.label ?? 'custom'}
          onChange={(e) => {
            const preset = PRESETS.find((p) => p.label === e.target.value);
            if (preset) update({ width: preset.width, height: preset.height });
          }}
        >
          {PRESETS.map((p) => (
            <option key={p.label} value={p.label}>
              {p.label}
            </option>
          ))}
          <option value="custom" disabled>
            Custom
          </option>
        </select>
      </div>
      <NumberField id="comp-width" label="Width (px)" value={settings.width} min={16} max={16384} onChange={(width) => update({ width })} />
      <NumberField
        id="comp-height"
        label="Height (px)"
        value={settings.height}
        min={16}
        max={16384}
        onChange={(height) => update({ height })}
      />
      <NumberField
        id="comp-spacing"
        label="Spacing (px)"
        value={settings.spacing}
        min={0}
        max={400}
        onChange={(spacing) => update({ spacing })}
      />
      <NumberField
        id="comp-radius"
        label="Corner radius (px)"
        value={settings.radius}
        min={0}
        max={1000}
        onChange={(radius) => update({ radius })}
      />
      <div className="field">
        <label htmlFor="comp-bg">Background</label>
        <input
          id="comp-bg"
          type="color"
          value={settings.bg}
          onChange={(e) => update({ bg: e.target.value })}
          disabled={layout.transparent}
        />
      </div>
      {settings.format === 'png' ? (
        <label className="checkbox-label">
          <input type="checkbox" checked={settings.transparent} onChange={(e) => update({ transparent: e.target.checked })} />
          Transparent background
        </label>
      ) : null}
    </div>
  );
}
