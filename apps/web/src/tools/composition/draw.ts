import { coverSource, gridCells, type Crop, type Rect } from '@tinkerdesk/tools/collage';

export interface Picture extends Crop {
  id: number;
  name: string;
  bitmap: ImageBitmap;
  /** Free layout: top left and width in output pixels (height follows the picture's proportions). */
  free: { x: number; y: number; width: number };
}

export interface Layout {
  mode: 'grid' | 'free';
  columns: number;
  width: number;
  height: number;
  spacing: number;
  radius: number;
  background: string;
  /** Transparent background (PNG only). */
  transparent: boolean;
}

/** Where each picture goes: its grid cell, or its free rectangle. */
export function placements(pictures: readonly Picture[], layout: Layout): Rect[] {
  if (layout.mode === 'grid') return gridCells(pictures.length, layout.width, layout.height, layout.spacing, layout.columns);
  return pictures.map((p) => ({
    x: p.free.x,
    y: p.free.y,
    width: p.free.width,
    height: (p.free.width * p.bitmap.height) / p.bitmap.width,
  }));
}

/** Draws the composition on a canvas of the layout's size (the preview and the export use the same drawing). */
export function drawComposition(
  ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D,
  pictures: readonly Picture[],
  layout: Layout,
  selected = -1,
) {
  ctx.clearRect(0, 0, layout.width, layout.height);
  if (!layout.transparent) {
    ctx.fillStyle = layout.background;
    ctx.fillRect(0, 0, layout.width, layout.height);
  }
  const rects = placements(pictures, layout);
  pictures.forEach((p, i) => {
    const r = rects[i]!;
    ctx.save();
    ctx.beginPath();
    ctx.roundRect(r.x, r.y, r.width, r.height, Math.min(layout.radius, r.width / 2, r.height / 2));
    ctx.clip();
    if (layout.mode === 'grid') {
      const s = coverSource(p.bitmap.width, p.bitmap.height, r.width, r.height, p);
      ctx.drawImage(p.bitmap, s.x, s.y, s.width, s.height, r.x, r.y, r.width, r.height);
    } else {
      ctx.drawImage(p.bitmap, r.x, r.y, r.width, r.height);
    }
    ctx.restore();
    if (i === selected) {
      ctx.save();
      ctx.strokeStyle = '#4f46e5';
      ctx.lineWidth = Math.max(3, layout.width / 300);
      ctx.setLineDash([ctx.lineWidth * 3, ctx.lineWidth * 2]);
      ctx.strokeRect(r.x, r.y, r.width, r.height);
      ctx.restore();
    }
  });
}
