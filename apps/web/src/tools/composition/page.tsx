import { useMemo } from 'react';
import { ImageFormatSelect, saveFile } from '../../shared/ui/actions';
import { fitsCanvas } from '../../shared/ui/canvas-limits';
import { FileDrop } from '../../shared/ui/files';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { useUrlSettings } from '../../shared/ui/url-settings';
import { useMediaQuery } from '../../shared/ui/use-media-query';
import type { ToolPageProps } from '../types';
import { drawComposition, type Layout } from './draw';
import { PicturePanel } from './PicturePanel';
import { SETTINGS } from './settings';
import { SettingsForm } from './SettingsForm';
import { Stage } from './Stage';
import { usePictures } from './use-pictures';

export default function CompositionPage(_: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
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
  const list = usePictures(layout);
  const { pictures, selected, setSelected, error } = list;

  function download() {
    const out = new OffscreenCanvas(layout.width, layout.height);
    const ctx = out.getContext('2d');
    if (!ctx) return;
    drawComposition(ctx, pictures, layout);
    void out
      .convertToBlob({ type: settings.format === 'png' ? 'image/png' : 'image/jpeg', quality: 0.92 })
      .then((blob) => saveFile(blob, `composition.${settings.format === 'png' ? 'png' : 'jpg'}`));
  }

  // On a phone, once there are pictures, the composition comes first and the settings after it.
  const narrow = useMediaQuery('(max-width: 700px)');
  const stageFirst = narrow && pictures.length > 0;
  const settingsForm = <SettingsForm settings={settings} update={update} layout={layout} />;
  const dropZone = (
    <FileDrop onFiles={(files) => void list.add(files)} accept="image/*" multiple label="Choose images">
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
            <Stage list={list} layout={layout} settings={settings} />
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
          <PicturePanel list={list} layout={layout} />
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
