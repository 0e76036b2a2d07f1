import { hitTest, moveItem, panBy } from '@tinkerdesk/tools/collage';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ImageFormatSelect, saveFile } from '../../shared/ui/actions';
import { fitsCanvas } from '../../shared/ui/canvas-limits';
import { FileDrop } from '../../shared/ui/files';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import { useMediaQuery } from '../../shared/ui/use-media-query';
import type { ToolPageProps } from '../types';
import { drawComposition, placements, type Layout, type Picture } from './draw';

const SETTINGS = {
  layout: setting.choice(['grid', 'free'] as const, 'grid'),
  cols: setting.integer(0, 0, 12),
  width: setting.integer(1600, 16, 16384),
  height: setting.integer(1200, 16, 16384),
  spacing: setting.integer(16, 0, 400),
  radius: setting.integer(12, 0, 1000),
  bg: setting.color('#ffffff'),
  transparent: setting.flag(false),
  format: setting.choice(['png', 'jpeg'] as const, 'png'),
  drag: setting.choice(['swap', 'crop'] as const, 'swap'),
};
const PRESETS = [
  { label: '1600 × 1200', width: 1600, height: 1200 },
  { label: 'Square 1080', width: 1080, height: 1080 },
  { label: 'HD 1920 × 1080', width: 1920, height: 1080 },
  { label: 'Story 1080 × 1920', width: 1080, height: 1920 },
  { label: 'A4 at 150 DPI', width: 1240, height: 1754 },
];
const MAX_PICTURES = 60;
const MAX_FILE = 50 * 1024 * 1024;

let nextId = 1;

function NumberField({
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

export default function CompositionPage(_: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [pictures, setPictures] = useState<Picture[]>([]);
  const [selected, setSelected] = useState(-1);
  const [error, setError] = useState('');
  const canvas = useRef<HTMLCanvasElement>(null);
  const gesture = useRef<{ index: number; x: number; y: number; moved: boolean; start: Picture } | null>(null);
  const [dropTarget, setDropTarget] = useState(-1);

  const layout = useMemo<Layout>(
    () => ({
      mode: settings.layout,
      columns: settings.cols,
      width: settings.width,
      height: settings.height,
      spacing: settings.spacing,
      radius: settings.radius,
      background: settings.bg,
      transparent: settings.transparent && settings.format === 'png',
    }),
    [settings],
  );
  const tooBig = !fitsCanvas(layout.width, layout.height);

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (ctx && !tooBig) drawComposition(ctx, pictures, layout, selected);
  }, [pictures, layout, selected, tooBig]);

  async function add(files: File[]) {
    setError('');
    const room = MAX_PICTURES - pictures.length;
    if (room <= 0) return setError(`A composition holds up to ${MAX_PICTURES} pictures.`);
    const added: Picture[] = [];
    const refused: string[] = [];
    for (const file of files.slice(0, room)) {
      try {
        if (file.size > MAX_FILE) throw new Error('too large');
        const bitmap = await createImageBitmap(file);
        const width = Math.round(layout.width / 3);
        const offset = ((pictures.length + added.length) % 6) * Math.round(layout.width / 20);
        added.push({ id: nextId++, name: file.name, bitmap, zoom: 1, panX: 0, panY: 0, free: { x: offset + 20, y: offset + 20, width } });
      } catch {
        refused.push(file.name);
      }
    }
    if (refused.length) setError(`Not a picture this browser can read: ${refused.join(', ')}.`);
    if (added.length) setPictures((list) => [...list, ...added]);
  }

  function point(event: React.PointerEvent<HTMLCanvasElement>): [number, number] {
    const box = event.currentTarget.getBoundingClientRect();
    return [((event.clientX - box.left) * layout.width) / box.width, ((event.clientY - box.top) * layout.height) / box.height];
  }

  function download() {
    const out = new OffscreenCanvas(layout.width, layout.height);
    const ctx = out.getContext('2d');
    if (!ctx) return;
    drawComposition(ctx, pictures, layout);
    void out
      .convertToBlob({ type: settings.format === 'png' ? 'image/png' : 'image/jpeg', quality: 0.92 })
      .then((blob) => saveFile(blob, `composition.${settings.format === 'png' ? 'png' : 'jpg'}`));
  }

  const current = pictures[selected];
  const replace = (index: number, patch: Partial<Picture>) =>
    setPictures((list) => list.map((p, i) => (i === index ? { ...p, ...patch } : p)));

  // On a phone, once there are pictures, the composition comes first and the settings after it.
  const narrow = useMediaQuery('(max-width: 700px)');
  const stageFirst = narrow && pictures.length > 0;
  const settingsForm = (
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
  const dropZone = (
    <FileDrop onFiles={(files) => void add(files)} accept="image/*" multiple label="Choose images">
      Drop pictures here or paste them
    </FileDrop>
  );

  return (
    <>
      {stageFirst ? null : (
        <>
          {settingsForm}
          {dropZone}
        </>
      )}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {tooBig ? (
        <p className="field-error" role="alert">
          {layout.width} × {layout.height} is more than 120 megapixels, more than a browser can draw. Choose a smaller size.
        </p>
      ) : null}

      {pictures.length > 0 && !tooBig ? (
        <>
          <fieldset className="comp-drag">
            <legend>Dragging on the composition</legend>
            {settings.layout === 'grid' ? (
              <>
                <label className="checkbox-label">
                  <input type="radio" name="comp-drag" checked={settings.drag === 'swap'} onChange={() => update({ drag: 'swap' })} />
                  swaps two pictures
                </label>
                <label className="checkbox-label">
                  <input type="radio" name="comp-drag" checked={settings.drag === 'crop'} onChange={() => update({ drag: 'crop' })} />
                  moves the picture inside its cell (crop)
                </label>
              </>
            ) : (
              <span>moves a picture; the last one picked is on top.</span>
            )}
          </fieldset>
          <div className="comp-stage">
            <canvas
              ref={canvas}
              width={layout.width}
              height={layout.height}
              role="img"
              aria-label={`The composition: ${pictures.length} ${pictures.length === 1 ? 'picture' : 'pictures'}, ${layout.width} × ${layout.height} px`}
              className={dropTarget >= 0 ? 'dragging' : undefined}
              tabIndex={0}
              aria-describedby="comp-keys"
              onKeyDown={(event) => {
                // Arrow keys move the chosen picture (free layout) or its crop (grid, crop mode); Shift: 10 px.
                const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
                if (!step || !current) return;
                event.preventDefault();
                const [dx, dy] = [step[0]! * (event.shiftKey ? 10 : 1), step[1]! * (event.shiftKey ? 10 : 1)];
                if (layout.mode === 'free')
                  replace(selected, { free: { ...current.free, x: current.free.x + dx, y: current.free.y + dy } });
                else {
                  const cell = placements(pictures, layout)[selected]!;
                  replace(selected, panBy(current, current.bitmap.width, current.bitmap.height, cell, -dx, -dy));
                }
              }}
              onPointerDown={(event) => {
                const [x, y] = point(event);
                const index = hitTest(placements(pictures, layout), x, y);
                setSelected(index);
                if (index < 0) return;
                event.currentTarget.setPointerCapture(event.pointerId);
                gesture.current = { index, x, y, moved: false, start: pictures[index]! };
              }}
              onPointerMove={(event) => {
                const g = gesture.current;
                if (!g) return;
                const [x, y] = point(event);
                const [dx, dy] = [x - g.x, y - g.y];
                if (Math.hypot(dx, dy) > 3) g.moved = true;
                if (layout.mode === 'free') {
                  replace(g.index, { free: { ...g.start.free, x: g.start.free.x + dx, y: g.start.free.y + dy } });
                } else if (settings.drag === 'crop') {
                  const cell = placements(pictures, layout)[g.index]!;
                  replace(g.index, panBy(g.start, g.start.bitmap.width, g.start.bitmap.height, cell, dx, dy));
                } else {
                  setDropTarget(hitTest(placements(pictures, layout), x, y));
                }
              }}
              onPointerUp={(event) => {
                const g = gesture.current;
                gesture.current = null;
                setDropTarget(-1);
                if (!g) return;
                if (layout.mode === 'free' && g.moved) {
                  // The moved picture comes to the front.
                  setPictures((list) => moveItem(list, g.index, list.length - 1));
                  setSelected(pictures.length - 1);
                } else if (layout.mode === 'grid' && settings.drag === 'swap' && g.moved) {
                  const [x, y] = point(event);
                  const target = hitTest(placements(pictures, layout), x, y);
                  if (target >= 0 && target !== g.index) {
                    setPictures((list) => {
                      const next = [...list];
                      [next[g.index], next[target]] = [next[target]!, next[g.index]!];
                      return next;
                    });
                    setSelected(target);
                  }
                }
              }}
            />
          </div>
          <p id="comp-keys" className="hint">
            Choose a picture below or on the composition; then the arrow keys on the composition move it
            {settings.layout === 'grid' ? ' inside its cell' : ''} (Shift: 10 px at a time).
          </p>
          <ol className="comp-list" aria-label="Pictures">
            {pictures.map((p, i) => (
              <li key={p.id}>
                <button
                  type="button"
                  className={i === selected ? 'chip active' : 'chip'}
                  aria-pressed={i === selected}
                  onClick={() => setSelected(i === selected ? -1 : i)}
                >
                  {i + 1}. {p.name}
                </button>
              </li>
            ))}
          </ol>
          {current ? (
            <div className="tool-form comp-selected" role="group" aria-label={`Picture ${selected + 1}: ${current.name}`}>
              {settings.layout === 'grid' ? (
                <>
                  <div className="field">
                    <label htmlFor="comp-zoom">Zoom</label>
                    <input
                      id="comp-zoom"
                      type="range"
                      min={1}
                      max={4}
                      step={0.05}
                      value={current.zoom}
                      onChange={(e) => replace(selected, { zoom: Number(e.target.value) })}
                    />
                  </div>
                  <button type="button" className="button button-small" onClick={() => replace(selected, { zoom: 1, panX: 0, panY: 0 })}>
                    Reset crop
                  </button>
                </>
              ) : (
                <>
                  <div className="field">
                    <label htmlFor="comp-size">Picture width (px)</label>
                    <input
                      id="comp-size"
                      type="range"
                      min={Math.round(layout.width / 20)}
                      max={layout.width * 2}
                      value={current.free.width}
                      onChange={(e) => replace(selected, { free: { ...current.free, width: Number(e.target.value) } })}
                    />
                  </div>
                  <NumberField
                    id="comp-x"
                    label="Left (px)"
                    value={Math.round(current.free.x)}
                    min={-layout.width}
                    max={layout.width}
                    onChange={(x) => replace(selected, { free: { ...current.free, x } })}
                  />
                  <NumberField
                    id="comp-y"
                    label="Top (px)"
                    value={Math.round(current.free.y)}
                    min={-layout.height}
                    max={layout.height}
                    onChange={(y) => replace(selected, { free: { ...current.free, y } })}
                  />
                </>
              )}
              <div className="inline-field">
                <button
                  type="button"
                  className="button button-small"
                  disabled={selected === 0}
                  onClick={() => {
                    setPictures((list) => moveItem(list, selected, selected - 1));
                    setSelected(selected - 1);
                  }}
                >
                  Move earlier
                </button>
                <button
                  type="button"
                  className="button button-small"
                  disabled={selected === pictures.length - 1}
                  onClick={() => {
                    setPictures((list) => moveItem(list, selected, selected + 1));
                    setSelected(selected + 1);
                  }}
                >
                  Move later
                </button>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => {
                    setPictures((list) => list.filter((_, i) => i !== selected));
                    setSelected(-1);
                  }}
                >
                  Remove
                </button>
              </div>
            </div>
          ) : null}
          <div className="annotate-export">
            <ImageFormatSelect id="comp-format" value={settings.format} onChange={(format) => update({ format })} />
            <button type="button" className="button button-primary" onClick={download}>
              Download {settings.format === 'png' ? 'PNG' : 'JPG'}
            </button>
          </div>
        </>
      ) : pictures.length === 0 ? (
        <p className="empty-state-text">Add two or more pictures to compose them in a grid or freely.</p>
      ) : null}
      {stageFirst ? (
        <>
          {dropZone}
          {settingsForm}
        </>
      ) : null}
      <ToolAbout>
        <p>
          Puts several pictures together: in a grid (automatic or chosen columns, cells that fill the canvas) or freely placed and sized.
          Choose the size (presets for square, HD, stories and A4), the spacing, rounded corners and the background (or a transparent one
          for PNG). In a grid, drag a picture onto another to swap them, or switch to crop and drag it inside its cell; zoom with the
          slider.
        </p>
        <p>The composition is drawn at full size on this device and downloaded as PNG or JPG; nothing is uploaded.</p>
      </ToolAbout>
    </>
  );
}
