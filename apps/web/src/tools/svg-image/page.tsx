import { cleanSvg, removedSummary, svgMarkup, SvgError, type CleanSvg } from '@tinkerdesk/tools/svg';
import { useEffect, useMemo, useState } from 'react';
import { CopyImageButton, saveFile } from '../../shared/ui/actions';
import { FileDrop } from '../../shared/ui/files';
import { formatSize } from '../../shared/ui/format';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { useAsyncValue } from '../../shared/ui/use-async-value';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import type { ToolPageProps } from '../types';
import { rasterize, type ImageType, type RasterJob } from '../../shared/ui/svg-raster';

const FORMATS: Array<{ value: 'png' | 'jpeg' | 'webp'; label: string; type: ImageType; ext: string }> = [
  { value: 'png', label: 'PNG', type: 'image/png', ext: 'png' },
  { value: 'jpeg', label: 'JPG', type: 'image/jpeg', ext: 'jpg' },
  { value: 'webp', label: 'WebP', type: 'image/webp', ext: 'webp' },
];
const SETTINGS = {
  format: setting.choice(['png', 'jpeg', 'webp'] as const, 'png'),
  quality: setting.integer(92, 1, 100),
  transparent: setting.flag(true),
  bg: setting.color('#ffffff'),
};
const MAX_FILE = 20 * 1024 * 1024;
const EXAMPLE = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120" viewBox="0 0 240 120">
  <defs>
    <linearGradient id="sky" x1="0" x2="1">
      <stop offset="0" stop-color="#4f46e5"/>
      <stop offset="1" stop-color="#06b6d4"/>
    </linearGradient>
  </defs>
  <rect width="240" height="120" rx="16" fill="url(#sky)"/>
  <circle cx="60" cy="60" r="28" fill="#facc15"/>
  <text x="104" y="70" font-family="sans-serif" font-size="28" font-weight="700" fill="#fff">Hello</text>
</svg>`;

type Outcome = { blob: Blob; error?: undefined } | { blob?: undefined; error: string };

export default function SvgToImagePage(_: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [text, setText] = useState('');
  const [name, setName] = useState('image');
  const [readError, setReadError] = useState('');
  const [size, setSize] = useState<{ for: CleanSvg; width: number; height: number } | null>(null);
  const [keep, setKeep] = useState(true);

  const parsed = useMemo((): { svg?: CleanSvg; error?: string } => {
    if (text.trim() === '') return {};
    try {
      return { svg: cleanSvg(text) };
    } catch (error) {
      return { error: error instanceof SvgError ? error.message : `This SVG could not be read: ${String(error)}` };
    }
  }, [text]);
  const svg = parsed.svg;
  const intrinsic = svg ? { width: Math.max(1, Math.round(svg.width)), height: Math.max(1, Math.round(svg.height)) } : undefined;
  const current = svg && size?.for === svg ? size : intrinsic;
  const format = FORMATS.find((f) => f.value === settings.format) ?? FORMATS[0]!;

  const setWidth = (width: number) => {
    if (!svg || !current) return;
    const height = keep ? Math.max(1, Math.round((width * svg.height) / svg.width)) : current.height;
    setSize({ for: svg, width, height });
  };
  const setHeight = (height: number) => {
    if (!svg || !current) return;
    const width = keep ? Math.max(1, Math.round((height * svg.width) / svg.height)) : current.width;
    setSize({ for: svg, width, height });
  };

  const outWidth = svg ? (size?.for === svg ? size.width : Math.max(1, Math.round(svg.width))) : 0;
  const outHeight = svg ? (size?.for === svg ? size.height : Math.max(1, Math.round(svg.height))) : 0;
  const job = useMemo((): RasterJob | null => {
    if (!svg || !(outWidth >= 1) || !(outHeight >= 1)) return null;
    return {
      markup: svgMarkup(svg, outWidth, outHeight),
      source: text,
      width: outWidth,
      height: outHeight,
      type: format.type,
      quality: settings.quality / 100,
      background: settings.transparent && format.value !== 'jpeg' ? undefined : settings.bg,
    };
  }, [svg, text, outWidth, outHeight, format, settings.quality, settings.transparent, settings.bg]);
  const compute = useMemo(
    () =>
      job
        ? () =>
            rasterize(job).then(
              (blob): Outcome => ({ blob }),
              (error: unknown): Outcome => ({ error: error instanceof Error ? error.message : String(error) }),
            )
        : null,
    [job],
  );
  const outcome = useAsyncValue(compute);
  const url = useMemo(() => (outcome?.blob ? URL.createObjectURL(outcome.blob) : undefined), [outcome]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);

  const readFile = async (file: File) => {
    setReadError('');
    if (file.size > MAX_FILE) {
      setReadError(`That file is ${formatSize(file.size)}; SVG files up to ${formatSize(MAX_FILE)} can be converted.`);
      return;
    }
    setName(file.name.replace(/\.[^.]+$/, '') || 'image');
    setText(await file.text());
  };
  const removed = svg ? removedSummary(svg.removed) : '';
  const error = readError || parsed.error || outcome?.error;
  return (
    <>
      <div className="tool-form svg-settings" role="group" aria-label="Output settings">
        <div className="field">
          <label htmlFor="svg-format">Format</label>
          <select id="svg-format" value={settings.format} onChange={(e) => update({ format: e.target.value as 'png' | 'jpeg' | 'webp' })}>
            {FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="svg-width">Width (px)</label>
          <input
            id="svg-width"
            type="number"
            min={1}
            max={16384}
            value={current?.width ?? ''}
            disabled={!svg}
            onChange={(e) => setWidth(Number(e.target.value))}
          />
        </div>
        <div className="field">
          <label htmlFor="svg-height">Height (px)</label>
          <input
            id="svg-height"
            type="number"
            min={1}
            max={16384}
            value={current?.height ?? ''}
            disabled={!svg}
            onChange={(e) => setHeight(Number(e.target.value))}
          />
        </div>
        <label className="checkbox-label">
          <input type="checkbox" checked={keep} onChange={(e) => setKeep(e.target.checked)} />
          Keep proportions
        </label>
        <div className="field" role="group" aria-labelledby="svg-scale">
          <span id="svg-scale">Scale</span>
          <div className="inline-field">
            {[1, 2, 4].map((factor) => (
              <button
                key={factor}
                type="button"
                className="button button-small"
                disabled={!svg}
                onClick={() =>
                  svg && intrinsic && setSize({ for: svg, width: intrinsic.width * factor, height: intrinsic.height * factor })
                }
              >
                {factor}×
              </button>
            ))}
          </div>
        </div>
        {format.value !== 'png' ? (
          <div className="field">
            <label htmlFor="svg-quality">Quality</label>
            <input
              id="svg-quality"
              type="number"
              min={1}
              max={100}
              value={settings.quality}
              onChange={(e) => update({ quality: Number(e.target.value) })}
            />
          </div>
        ) : null}
        {format.value !== 'jpeg' ? (
          <label className="checkbox-label">
            <input type="checkbox" checked={settings.transparent} onChange={(e) => update({ transparent: e.target.checked })} />
            Transparent background
          </label>
        ) : null}
        {format.value === 'jpeg' || !settings.transparent ? (
          <div className="field">
            <label htmlFor="svg-background">Background</label>
            <input id="svg-background" type="color" value={settings.bg} onChange={(e) => update({ bg: e.target.value })} />
          </div>
        ) : null}
      </div>
      <div className="tool-panes">
        <div className="tool-input">
          <TextPane
            id="input"
            label="Input"
            value={text}
            onChange={(value) => {
              setText(value);
              setReadError('');
            }}
            placeholder={'<svg xmlns="http://www.w3.org/2000/svg" …>'}
            error={error}
            info={svg ? `Drawn size ${Math.round(svg.width)} × ${Math.round(svg.height)} px` : undefined}
            actions={
              <button type="button" className="button button-small" onClick={() => setText('')} disabled={!text}>
                Clear
              </button>
            }
          />
          <FileDrop onFiles={([f]) => f && void readFile(f)} accept=".svg,image/svg+xml" label="Choose SVG file">
            Drop an .svg file here or paste it
          </FileDrop>
          {removed ? (
            <p className="notice" role="status">
              Taken out before drawing: {removed}. Nothing from other sites is loaded and no script runs.
            </p>
          ) : null}
        </div>
        <section className="tool-output barcode-output" aria-label="Output" aria-busy={Boolean(job) && !outcome}>
          <div className="text-pane-head">
            <h2 className="pane-title">Output</h2>
            <div className="text-pane-actions">
              {format.value === 'png' ? <CopyImageButton png={url ? outcome?.blob : undefined} /> : null}
              <button
                type="button"
                className="button button-small"
                disabled={!url}
                onClick={() => outcome?.blob && saveFile(outcome.blob, `${name}.${format.ext}`)}
              >
                Download {format.label}
              </button>
            </div>
          </div>
          <div className="barcode-stage">
            {url && !error ? (
              <img src={url} alt={`The ${format.label} image`} />
            ) : (
              <p className="empty-state-text">The image appears here.</p>
            )}
          </div>
          {url && outcome?.blob && job && !error ? (
            <p className="text-pane-info">
              {job.width} × {job.height} px {format.label} · {formatSize(outcome.blob.size)}
            </p>
          ) : null}
        </section>
      </div>
      <ToolAbout examples={[{ label: 'A small logo', input: EXAMPLE }]} onExample={setText}>
        <p>
          Turns SVG into a PNG, JPG or WebP picture at any size up to 16,384 pixels a side: the vector is drawn afresh at that size, so it
          stays sharp. Choose a transparent background (PNG, WebP) or a colour.
        </p>
        <p>
          SVG can hold scripts and links to files elsewhere. Here it is drawn as an image, where browsers run no script and load nothing; on
          top of that, scripts, event handlers and references to other sites are taken out first, and you are told what was removed. Fonts
          that are not installed on this device fall back to the default font. Nothing is uploaded.
        </p>
      </ToolAbout>
    </>
  );
}
