import type { Layout } from './draw';
import { NumberField } from './SettingsForm';
import type { PictureList } from './use-pictures';

/** The chosen picture: its crop (grid) or place and size (free), its place in the order, its removal. */
export function PicturePanel({ list, layout }: { list: PictureList; layout: Layout }) {
  const { pictures, selected, replace } = list;
  const current = pictures[selected];
  if (!current) return null;
  return (
    <div className="tool-form comp-selected" role="group" aria-label={`Picture ${selected + 1}: ${current.name}`}>
      {layout.mode === 'grid' ? (
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
        <button type="button" className="button button-small" disabled={selected === 0} onClick={() => list.move(selected, selected - 1)}>
          Move earlier
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={selected === pictures.length - 1}
          onClick={() => list.move(selected, selected + 1)}
        >
          Move later
        </button>
        <button type="button" className="button button-small" onClick={() => list.remove(selected)}>
          Remove
        </button>
      </div>
    </div>
  );
}
