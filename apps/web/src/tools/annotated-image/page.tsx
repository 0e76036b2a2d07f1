import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { CopyImageButton, ImageFormatSelect, saveFile } from '../../shared/ui/actions';
import { FileDrop } from '../../shared/ui/files';
import { formatSize } from '../../shared/ui/format';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { useUrlSettings } from '../../shared/ui/url-settings';
import type { ToolPageProps } from '../types';
import { history } from './history';
import { SETTINGS, TOOLS } from './settings';
import { drawAll, isVisible, textAt, type Shape, type TextShape, type Tool } from './shapes';
import { TextEditor, type Place } from './TextEditor';
import { Toolbar } from './Toolbar';

const MAX_FILE = 50 * 1024 * 1024;
const MAX_PIXELS = 60_000_000;

export default function AnnotatedImagePage(_: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [picture, setPicture] = useState<{ bitmap: ImageBitmap; name: string } | null>(null);
  const [error, setError] = useState('');
  /** The text being typed where it was placed: a new one (index null) or a placed one being edited. */
  const [editor, setEditor] = useState<{ index: number | null; shape: TextShape; place: Place } | null>(null);
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
  const shapes = useMemo(() => {
    // Text being edited is shown by the editor, not drawn under it.
    const drawn = editor?.index != null ? state.present.filter((_, i) => i !== editor.index) : state.present;
    return draft ? [...drawn, draft] : drawn;
  }, [state.present, draft, editor]);

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

  function shapeFor(tool: Exclude<Tool, 'text'>, [x1, y1]: [number, number], [x2, y2]: [number, number], previous: Shape | null): Shape {
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
      case 'marker':
        return { kind: 'marker', x: x2, y: y2, n: nextMarker, color: settings.color, size: fontSize * 1.4 };
      case 'cover':
        return { kind: 'cover', x: x1, y: y1, w: x2 - x1, h: y2 - y1, color: settings.color === '#e11d48' ? '#111827' : settings.color };
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

  /** Opens the text editor at a point: on the placed text there, else for new text. */
  function openText(p: [number, number]) {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const box = c.getBoundingClientRect();
    const stage = c.parentElement?.getBoundingClientRect() ?? box;
    const place = { left: box.left - stage.left, top: box.top - stage.top, scale: box.width / c.width };
    const index = textAt(ctx, state.present, p);
    const placed = state.present[index];
    if (placed?.kind === 'text') setEditor({ index, shape: placed, place });
    else setEditor({ index: null, shape: { kind: 'text', x: p[0], y: p[1], text: '', color: settings.color, size: fontSize }, place });
  }

  /** Places (or changes, or with no text left removes) the text being edited. */
  function commitText(text: string) {
    if (!editor) return;
    const shape = { ...editor.shape, text: text.replace(/\s+$/, '') };
    setEditor(null);
    if (editor.index === null) {
      if (isVisible(shape)) dispatch({ type: 'add', shape });
    } else if (shape.text !== editor.shape.text) {
      dispatch({ type: 'replace', index: editor.index, shape: isVisible(shape) ? shape : null });
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
  const dropZone = (
    <FileDrop onFiles={(files) => void open(files)} accept="image/*" label="Choose image">
      {picture ? 'Drop another picture here or paste it (Ctrl+V)' : 'Drop the picture to annotate here or paste it (Ctrl+V)'}
    </FileDrop>
  );
  return (
    <>
      {picture ? null : dropZone}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {picture ? (
        <div className="annotate">
          <Toolbar settings={settings} update={update} state={state} dispatch={dispatch} />
          <div className="annotate-stage">
            <canvas
              ref={canvas}
              width={picture.bitmap.width}
              height={picture.bitmap.height}
              role="img"
              aria-label={`The picture with ${state.present.length} ${state.present.length === 1 ? 'annotation' : 'annotations'}; drawing with the ${toolLabel} tool`}
              onPointerDown={(event) => {
                const p = point(event);
                if (settings.tool === 'text') {
                  // The editor opens on pointer up, so this press does not take its focus away.
                  event.preventDefault();
                  return;
                }
                event.currentTarget.setPointerCapture(event.pointerId);
                start.current = p;
                setDraft(shapeFor(settings.tool, p, p, null));
              }}
              onPointerMove={(event) => {
                if (!start.current || settings.tool === 'text') return;
                const p = point(event);
                const tool = settings.tool;
                setDraft((previous) => shapeFor(tool, start.current!, p, previous));
              }}
              onPointerUp={(event) => {
                if (settings.tool === 'text') {
                  if (!editor) openText(point(event));
                  return;
                }
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
            {editor ? (
              <TextEditor
                key={`${editor.index ?? 'new'}-${editor.shape.x}-${editor.shape.y}`}
                place={editor.place}
                shape={editor.shape}
                onDone={commitText}
                onCancel={() => setEditor(null)}
              />
            ) : null}
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
      {/* With a picture open, the tools and the picture come first (on a phone, above a screen of drop zone). */}
      {picture ? dropZone : null}
      <ToolAbout>
        <p>
          Marks up a screenshot or photo: arrows, rectangles, ellipses, free drawing, text, numbered markers (1, 2, 3… in order) and a
          highlighter. Text is typed where you click (Enter places it, Shift+Enter starts a new line, Escape leaves it); click placed text
          with the Text tool to change it. Undo and redo with Ctrl+Z and Ctrl+Shift+Z; each tool has a key (A, R, E, P, T, N, H, C, B, X),
          off while you type.
        </p>
        <p>
          Cover, Blur and Pixelate redact for real. Cover paints a solid box over the region: use it for text. Blur and Pixelate replace the
          pixels with averages of blocks at least as large as the region&apos;s shorter side, so text of any size under them cannot be read,
          and the exported picture holds nothing of what was there (a blur filter or a see-through box can often be undone; this cannot).
          Everything happens on this device.
        </p>
      </ToolAbout>
    </>
  );
}
