import { blurRegion, pixelate } from '@tinkerdesk/tools/redact';

export type Tool = 'arrow' | 'rect' | 'ellipse' | 'pen' | 'text' | 'marker' | 'highlight' | 'cover' | 'blur' | 'pixelate';

interface Stroke {
  color: string;
  /** Line width in image pixels. */
  width: number;
}
export type Shape =
  | ({ kind: 'arrow'; x1: number; y1: number; x2: number; y2: number } & Stroke)
  | ({ kind: 'rect' | 'ellipse' | 'highlight'; x: number; y: number; w: number; h: number } & Stroke)
  | { kind: 'cover'; x: number; y: number; w: number; h: number; color: string }
  | ({ kind: 'pen'; points: Array<[number, number]> } & Stroke)
  | { kind: 'text'; x: number; y: number; text: string; color: string; size: number }
  | { kind: 'marker'; x: number; y: number; n: number; color: string; size: number }
  | { kind: 'blur' | 'pixelate'; x: number; y: number; w: number; h: number; strength: number };

function arrow(ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D, s: Extract<Shape, { kind: 'arrow' }>) {
  const angle = Math.atan2(s.y2 - s.y1, s.x2 - s.x1);
  const head = Math.max(10, s.width * 4);
  ctx.strokeStyle = s.color;
  ctx.fillStyle = s.color;
  ctx.lineWidth = s.width;
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.moveTo(s.x1, s.y1);
  ctx.lineTo(s.x2 - Math.cos(angle) * head * 0.8, s.y2 - Math.sin(angle) * head * 0.8);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(s.x2, s.y2);
  ctx.lineTo(s.x2 - head * Math.cos(angle - Math.PI / 7), s.y2 - head * Math.sin(angle - Math.PI / 7));
  ctx.lineTo(s.x2 - head * Math.cos(angle + Math.PI / 7), s.y2 - head * Math.sin(angle + Math.PI / 7));
  ctx.closePath();
  ctx.fill();
}

/** Whether a shape is big enough to keep (a click without a drag makes no rectangle). */
export function isVisible(shape: Shape): boolean {
  switch (shape.kind) {
    case 'arrow':
      return Math.hypot(shape.x2 - shape.x1, shape.y2 - shape.y1) >= 4;
    case 'pen':
      return shape.points.length > 1;
    case 'text':
      return shape.text.trim() !== '';
    case 'marker':
      return true;
    default:
      return Math.abs(shape.w) >= 3 && Math.abs(shape.h) >= 3;
  }
}

export type TextShape = Extract<Shape, { kind: 'text' }>;

/** The line height of placed text, as a multiple of its size. */
export const TEXT_LINE_HEIGHT = 1.25;

/** The font of placed text (the inline editor uses the same). */
export const textFont = (size: number): string => `600 ${size}px system-ui, sans-serif`;

/** The index of the topmost text shape whose box holds the point, or -1. */
export function textAt(
  ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D,
  shapes: readonly Shape[],
  [x, y]: [number, number],
): number {
  for (let i = shapes.length - 1; i >= 0; i--) {
    const s = shapes[i]!;
    if (s.kind !== 'text') continue;
    ctx.save();
    ctx.font = textFont(s.size);
    const lines = s.text.split('\n');
    const width = Math.max(...lines.map((line) => ctx.measureText(line).width));
    ctx.restore();
    const pad = s.size / 4;
    if (x >= s.x - pad && x <= s.x + width + pad && y >= s.y - pad && y <= s.y + lines.length * s.size * TEXT_LINE_HEIGHT + pad) return i;
  }
  return -1;
}

/**
 * Draws the picture and the shapes, in order, on a canvas of the picture's size. Cover paints an opaque
 * box; blur and pixelate replace the pixels under them (everything drawn so far) with values made from
 * block averages only, in blocks at least as large as the region's shorter side.
 */
export function drawAll(
  ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D,
  image: CanvasImageSource,
  shapes: readonly Shape[],
) {
  const { width, height } = ctx.canvas;
  ctx.clearRect(0, 0, width, height);
  ctx.drawImage(image, 0, 0, width, height);
  for (const s of shapes) {
    ctx.save();
    switch (s.kind) {
      case 'arrow':
        arrow(ctx, s);
        break;
      case 'rect':
        ctx.strokeStyle = s.color;
        ctx.lineWidth = s.width;
        ctx.lineJoin = 'round';
        ctx.strokeRect(s.x, s.y, s.w, s.h);
        break;
      case 'ellipse':
        ctx.strokeStyle = s.color;
        ctx.lineWidth = s.width;
        ctx.beginPath();
        ctx.ellipse(s.x + s.w / 2, s.y + s.h / 2, Math.abs(s.w / 2), Math.abs(s.h / 2), 0, 0, Math.PI * 2);
        ctx.stroke();
        break;
      case 'cover':
        // An opaque box: every pixel under it is replaced by the colour (the export keeps nothing else).
        ctx.globalAlpha = 1;
        ctx.fillStyle = s.color;
        ctx.fillRect(s.x, s.y, s.w, s.h);
        break;
      case 'highlight':
        ctx.globalCompositeOperation = 'multiply';
        ctx.globalAlpha = 0.4;
        ctx.fillStyle = s.color;
        ctx.fillRect(s.x, s.y, s.w, s.h);
        break;
      case 'pen':
        ctx.strokeStyle = s.color;
        ctx.lineWidth = s.width;
        ctx.lineCap = 'round';
        ctx.lineJoin = 'round';
        ctx.beginPath();
        s.points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
        ctx.stroke();
        break;
      case 'text':
        ctx.fillStyle = s.color;
        ctx.font = textFont(s.size);
        ctx.textBaseline = 'top';
        ctx.lineWidth = Math.max(2, s.size / 8);
        ctx.strokeStyle = 'rgba(255,255,255,0.85)';
        s.text.split('\n').forEach((line, i) => {
          ctx.strokeText(line, s.x, s.y + i * s.size * TEXT_LINE_HEIGHT);
          ctx.fillText(line, s.x, s.y + i * s.size * TEXT_LINE_HEIGHT);
        });
        break;
      case 'marker': {
        const r = s.size / 2;
        ctx.fillStyle = s.color;
        ctx.beginPath();
        ctx.arc(s.x, s.y, r, 0, Math.PI * 2);
        ctx.fill();
        ctx.lineWidth = Math.max(2, r / 6);
        ctx.strokeStyle = '#ffffff';
        ctx.stroke();
        ctx.fillStyle = '#ffffff';
        ctx.font = `700 ${Math.round(r * 1.1)}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(String(s.n), s.x, s.y + r * 0.05);
        break;
      }
      case 'blur':
      case 'pixelate': {
        const x = Math.max(0, Math.floor(Math.min(s.x, s.x + s.w)));
        const y = Math.max(0, Math.floor(Math.min(s.y, s.y + s.h)));
        const w = Math.min(width, Math.ceil(Math.max(s.x, s.x + s.w))) - x;
        const h = Math.min(height, Math.ceil(Math.max(s.y, s.y + s.h))) - y;
        if (w <= 0 || h <= 0) break;
        const pixels = ctx.getImageData(x, y, w, h);
        const region = { x: 0, y: 0, width: w, height: h };
        if (s.kind === 'blur') blurRegion(pixels, region, s.strength);
        else pixelate(pixels, region, s.strength);
        ctx.putImageData(pixels, x, y);
        break;
      }
    }
    ctx.restore();
  }
}
