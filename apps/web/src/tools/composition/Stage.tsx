import { hitTest, panBy } from '@tinkerdesk/tools/collage';
import { useEffect, useRef, useState } from 'react';
import { drawComposition, placements, type Layout, type Picture } from './draw';
import type { CompositionSettings } from './settings';
import type { PictureList } from './use-pictures';

/**
 * The composition drawn on a canvas: a picture is chosen by a click, dragged (moved freely, swapped or
 * cropped in the grid) and moved by the arrow keys (Shift: 10 px).
 */
export function Stage({ list, layout, settings }: { list: PictureList; layout: Layout; settings: CompositionSettings }) {
  const { pictures, selected, setSelected, replace } = list;
  const canvas = useRef<HTMLCanvasElement>(null);
  const gesture = useRef<{ index: number; x: number; y: number; moved: boolean; start: Picture } | null>(null);
  const [dropTarget, setDropTarget] = useState(-1);
  const current = pictures[selected];

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (ctx) drawComposition(ctx, pictures, layout, selected);
  }, [pictures, layout, selected]);

  function point(event: React.PointerEvent<HTMLCanvasElement>): [number, number] {
    const box = event.currentTarget.getBoundingClientRect();
    return [((event.clientX - box.left) * layout.width) / box.width, ((event.clientY - box.top) * layout.height) / box.height];
  }

  return (
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
        if (layout.mode === 'free') replace(selected, { free: { ...current.free, x: current.free.x + dx, y: current.free.y + dy } });
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
          list.move(g.index, pictures.length - 1);
        } else if (layout.mode === 'grid' && settings.drag === 'swap' && g.moved) {
          const [x, y] = point(event);
          const target = hitTest(placements(pictures, layout), x, y);
          if (target >= 0 && target !== g.index) list.swap(g.index, target);
        }
      }}
    />
  );
}
