import type { Dispatch } from 'react';
import type { useUrlSettings } from '../../shared/ui/url-settings';
import type { Action, History } from './history';
import { SETTINGS, TOOLS } from './settings';

type Settings = ReturnType<typeof useUrlSettings<typeof SETTINGS>>;

/** The tools, colour and size, and undo, redo and clear. */
export function Toolbar({
  settings,
  update,
  state,
  dispatch,
}: {
  settings: Settings[0];
  update: Settings[1];
  state: History;
  dispatch: Dispatch<Action>;
}) {
  return (
    <div className="annotate-toolbar" role="toolbar" aria-label="Drawing tools">
      <div className="annotate-tools" role="group" aria-label="Tool">
        {TOOLS.map((t) => (
          <button
            key={t.id}
            type="button"
            className={settings.tool === t.id ? 'button button-small active' : 'button button-small'}
            aria-pressed={settings.tool === t.id}
            onClick={() => update({ tool: t.id })}
            title={`${t.label} (${t.key.toUpperCase()})`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <span className="annotate-option">
        <label htmlFor="annotate-colour">Colour</label>
        <input id="annotate-colour" type="color" value={settings.color} onChange={(e) => update({ color: e.target.value })} />
      </span>
      <span className="annotate-option">
        <label htmlFor="annotate-size">Size</label>
        <select id="annotate-size" value={settings.size} onChange={(e) => update({ size: e.target.value as 's' | 'm' | 'l' })}>
          <option value="s">Small</option>
          <option value="m">Medium</option>
          <option value="l">Large</option>
        </select>
      </span>
      {settings.tool === 'text' ? (
        <span className="annotate-hint">Click the picture to type there; click placed text to change it.</span>
      ) : null}
      <div className="inline-field">
        <button type="button" className="button button-small" onClick={() => dispatch({ type: 'undo' })} disabled={!state.past.length}>
          Undo
        </button>
        <button type="button" className="button button-small" onClick={() => dispatch({ type: 'redo' })} disabled={!state.future.length}>
          Redo
        </button>
        <button type="button" className="button button-small" onClick={() => dispatch({ type: 'clear' })} disabled={!state.present.length}>
          Clear all
        </button>
      </div>
    </div>
  );
}
