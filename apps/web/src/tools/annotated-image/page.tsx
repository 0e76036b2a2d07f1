import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { CopyImageButton, ImageFormatSelect, saveFile } from '../kit/actions';
import { FileDrop } from '../kit/files';
import { formatSize } from '../kit/format';
import { ToolAbout } from '../kit/ToolAbout';
import { setting, useUrlSettings } from '../kit/url-settings';
import type { ToolPageProps } from '../types';
import { drawAll, isVisible, type Shape, type Tool } from './shapes';

const TOOLS: Array<{ id: Tool; label: string; key: string }> = [
  { id: 'arrow', label: 'Arrow', key: 'a' },
  { id: 'rect', label: 'Rectangle', key: 'r' },
  { id: 'ellipse', label: 'Ellipse', key: 'e' },
  { id: 'pen', label: 'Pen', key: 'p' },
  { id: 'text', label: 'Text', key: 't' },
  { id: 'marker', label: 'Number', key: 'n' },
  { id: 'highlight', label: 'Highlight', key: 'h' },
  { id: 'blur', label: 'Blur', key: 'b' },
  { id: 'pixelate', label: 'Pixelate', key: 'x' },
];
const SETTINGS = {
  tool: setting.choice(
    TOOLS.map((t) => t.id),
    'arrow',
  ),
  color: setting.color('#e11d48'),
  size: setting.choice(['s', 'm', 'l'] as const, 'm'),
  format: setting.choice(['png', 'jpeg'] as const, 'png'),
};
const MAX_FILE = 50 * 1024 * 1024;
const MAX_PIXELS = 60_000_000;

interface History {
  past: Shape[][];
  present: Shape[];
  future: Shape[][];
}
type Action = { type: 'add'; shape: Shape } | { type: 'undo' } | { type: 'redo' } | { type: 'clear' } | { type: 'reset' };

function history(state: History, action: Action): History {
  switch (action.type) {
    case 'add':
      return { past: [...state.past, state.present], present: [...state.present, action.shape], future: [] };
    case 'clear':
      return state.present.length ? { past: [...state.past, state.present], present: [], future: [] } : state;
    case 'undo':
      return state.past.length
        ? { past: state.past.slice(0, -1), present: state.past[state.past.length - 1]!, future: [state.present, ...state.future] }
        : state;
    case 'redo':
      return state.future.length
        ? { past: [...state.past, state.present], present: state.future[0]!, future: state.future.slice(1) }
        : state;
    case 'reset':
      return { past: [], present: [], future: [] };
  }
}

export default function AnnotatedImagePage(_: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [picture, setPicture] = useState<{ bitmap: ImageBitmap; name: string } | null>(null);
  const [error, setError] = useState('');
  const [text, setText] = useState('Note');
  const [state, dispatch] = useReducer(history, { past: [], present: [], future: [] });
  const [draft, setDraft] = useState<Shape | null>(null);
  const [png, setPng] = useState<Blob | undefined>(undefined);
  const canvas = useRef<HTMLCanvasElement>(null);
  const start = useRef<[number, number] | null>(null);

  const unit = picture ? Math.max(picture.bitmap.width, picture.bitmap.height) / 1000 : 1;
  const scale = { s: 0.6, m: 1, l: 1.8 }[settings.size];
  const lineWidth = Math.max(2, Math.round(4 * unit * scale));
  const fontSize = Math.max(12, Math.round(28 * unit * scale));
  const nextMarker = state.present.filter((s) => s.kind === 'marker').length + 1;
  const shapes = useMemo(() => (draft ? [...state.present, draft] : state.present), [state.present, draft]);

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d', { willReadFrequently: true });
    if (!ctx || !picture) return;
    drawAll(ctx, picture.bitmap, shapes);
  }, [picture, shapes]);

  // A copy of the result for the clipboard, made when the drawing settles.
  useEffect(() => {
    if (!picture || draft) return;
    const timer = setTimeout(() => canvas.current?.toBlob((blob) => setPng(blob ?? undefined), 'image/png'), 300);
    return () => clearTimeout(timer);
  }, [picture, state.present, draft]);

  const open = useCallback(async (files: File[]) => {
    const [file] = files;
    if (!file) return;
    setError('');
    if (file.size > MAX_FILE)
      return setError(`That file is ${formatSize(file.size)}; pictures up to ${formatSize(MAX_FILE)} can be annotated.`);
    try {
      const bitmap = await createImageBitmap(file);
      if (bitmap.width * bitmap.height > MAX_PIXELS) {
        bitmap.close();
        return setError('That picture is larger than 60 megapixels; make it smaller first.');
      }
      setPicture((old) => {
        old?.bitmap.close();
        return { bitmap, name: file.name.replace(/\.[^.]+$/, '') || 'image' };
      });
      dispatch({ type: 'reset' });
      setPng(undefined);
    } catch {
      setError('This file is not a picture the browser can read. Use a PNG, JPEG, WebP, GIF or BMP image.');
    }
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      const key = event.key.toLowerCase();
      if ((event.ctrlKey || event.metaKey) && key === 'z') {
        event.preventDefault();
        dispatch({ type: event.shiftKey ? 'redo' : 'undo' });
      } else if ((event.ctrlKey || event.metaKey) && key === 'y') {
        event.preventDefault();
        dispatch({ type: 'redo' });
      } else if (!event.ctrlKey && !event.metaKey && !event.altKey) {
        const tool = TOOLS.find((t) => t.key === key);
        if (tool) update({ tool: tool.id });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [update]);

  function point(event: React.PointerEvent<HTMLCanvasElement>): [number, number] {
    const box = event.currentTarget.getBoundingClientRect();
    const c = event.currentTarget;
    return [((event.clientX - box.left) * c.width) / box.width, ((event.clientY - box.top) * c.height) / box.height];
  }

  function shapeFor(tool: Tool, [x1, y1]: [number, number], [x2, y2]: [number, number], previous: Shape | null): Shape {
    const stroke = { color: settings.color, width: lineWidth };
    switch (tool) {
      case 'arrow':
        return { kind: 'arrow', x1, y1, x2, y2, ...stroke };
      case 'pen':
        return {
          kind: 'pen',
          points:
            previous?.kind === 'pen'
              ? [...previous.points, [x2, y2]]
              : [
                  [x1, y1],
                  [x2, y2],
                ],
          ...stroke,
        };
      case 'text':
        return { kind: 'text', x: x2, y: y2, text, color: settings.color, size: fontSize };
      case 'marker':
        return { kind: 'marker', x: x2, y: y2, n: nextMarker, color: settings.color, size: fontSize * 1.4 };
      case 'blur':
      case 'pixelate':
        return { kind: tool, x: x1, y: y1, w: x2 - x1, h: y2 - y1, strength: Math.max(8, Math.round(12 * unit * scale)) };
      default:
        return {
          kind: tool,
          x: x1,
          y: y1,
          w: x2 - x1,
          h: y2 - y1,
          ...stroke,
          color: tool === 'highlight' && settings.color === '#e11d48' ? '#facc15' : settings.color,
        };
    }
  }

  function download() {
    canvas.current?.toBlob(
      (blob) => blob && saveFile(blob, `${picture?.name ?? 'image'}-annotated.${settings.format === 'png' ? 'png' : 'jpg'}`),
      settings.format === 'png' ? 'image/png' : 'image/jpeg',
      0.92,
    );
  }

  const toolLabel = TOOLS.find((t) => t.id === settings.tool)?.label ?? '';
  return (
    <>
      <FileDrop onFiles={(files) => void open(files)} accept="image/*" label="Choose image">
        Drop the picture to annotate here or paste it (Ctrl+V)
      </FileDrop>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {picture ? (
        <div className="annotate">
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
              <span className="annotate-option">
                <label htmlFor="annotate-text-to-place">Text to place</label>
                <input id="annotate-text-to-place" type="text" value={text} onChange={(e) => setText(e.target.value)} />
              </span>
            ) : null}
            <div className="inline-field">
              <button
                type="button"
                className="button button-small"
                onClick={() => dispatch({ type: 'undo' })}
                disabled={!state.past.length}
              >
                Undo
              </button>
              <button
                type="button"
                className="button button-small"
                onClick={() => dispatch({ type: 'redo' })}
                disabled={!state.future.length}
              >
                Redo
              </button>
              <button
                type="button"
                className="button button-small"
                onClick={() => dispatch({ type: 'clear' })}
                disabled={!state.present.length}
              >
                Clear all
              </button>
            </div>
          </div>
          <div className="annotate-stage">
            <canvas
              ref={canvas}
              width={picture.bitmap.width}
              height={picture.bitmap.height}
              role="img"
              aria-label={`The picture with ${state.present.length} annotations; drawing with the ${toolLabel} tool`}
              onPointerDown={(event) => {
                event.currentTarget.setPointerCapture(event.pointerId);
                const p = point(event);
                start.current = p;
                setDraft(shapeFor(settings.tool, p, p, null));
              }}
              onPointerMove={(event) => {
                if (!start.current) return;
                const p = point(event);
                setDraft((previous) => shapeFor(settings.tool, start.current!, p, previous));
              }}
              onPointerUp={(event) => {
                if (!start.current) return;
                const shape = shapeFor(settings.tool, start.current, point(event), draft);
                start.current = null;
                setDraft(null);
                if (isVisible(shape)) dispatch({ type: 'add', shape });
              }}
              onPointerCancel={() => {
                start.current = null;
                setDraft(null);
              }}
            />
          </div>
          <div className="annotate-export">
            <span className="text-pane-info">
              {picture.bitmap.width} × {picture.bitmap.height} px · {state.present.length}{' '}
              {state.present.length === 1 ? 'annotation' : 'annotations'}
            </span>
            <ImageFormatSelect id="annotate-format" value={settings.format} onChange={(format) => update({ format })} />
            <CopyImageButton png={png} />
            <button type="button" className="button button-primary" onClick={download}>
              Download {settings.format === 'png' ? 'PNG' : 'JPG'}
            </button>
          </div>
        </div>
      ) : (
        <p className="empty-state-text">
          Open a picture to draw arrows, boxes, text and numbered markers on it, or to blur what must not be seen.
        </p>
      )}
      <ToolAbout>
        <p>
          Marks up a screenshot or photo: arrows, rectangles, ellipses, free drawing, text, numbered markers (1, 2, 3… in order) and a
          highlighter. Undo and redo with Ctrl+Z and Ctrl+Shift+Z; each tool has a key (A, R, E, P, T, N, H, B, X).
        </p>
        <p>
          Blur and Pixelate redact for real: the pixels under them are replaced by averages of large blocks, so the exported picture holds
          nothing of what was there (a blur filter or a box drawn on top can often be undone; this cannot). Everything happens on this
          device.
        </p>
      </ToolAbout>
    </>
  );
}
