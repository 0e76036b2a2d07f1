import { useEffect, useRef, useState } from 'react';
import { TEXT_LINE_HEIGHT, textFont, type TextShape } from './shapes';

/** Where the canvas is drawn inside its stage, and its display scale (CSS pixels per picture pixel). */
export interface Place {
  left: number;
  top: number;
  scale: number;
}

/**
 * Text typed where it is placed: a text box over the canvas at the text's place, size and colour.
 * Enter places it (Shift+Enter starts a new line), Escape leaves it as it was, leaving the box places it.
 * The tool keys are off while typing (they ignore text fields).
 */
export function TextEditor({
  place,
  shape,
  onDone,
  onCancel,
}: {
  place: Place;
  shape: TextShape;
  onDone: (text: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(shape.text);
  const field = useRef<HTMLTextAreaElement>(null);
  const finished = useRef(false);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  const lines = value.split('\n');
  const finish = (done: () => void) => {
    if (finished.current) return;
    finished.current = true;
    done();
  };
  return (
    <textarea
      ref={field}
      className="annotate-text-editor"
      aria-label="Text on the picture"
      value={value}
      rows={lines.length}
      cols={Math.max(4, ...lines.map((l) => l.length + 1))}
      spellCheck={false}
      style={{
        left: place.left + shape.x * place.scale,
        top: place.top + shape.y * place.scale,
        font: textFont(shape.size * place.scale),
        lineHeight: TEXT_LINE_HEIGHT,
        color: shape.color,
      }}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          finish(onCancel);
        } else if (e.key === 'Enter' && !e.shiftKey) {
          e.preventDefault();
          finish(() => onDone(value));
        }
      }}
      onBlur={() => finish(() => onDone(value))}
    />
  );
}
