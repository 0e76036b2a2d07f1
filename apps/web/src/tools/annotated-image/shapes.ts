import { blurRegion, pixelate } from '@tinkerdesk/tools/redact';

export type Tool = 'arrow' | 'rect' | 'ellipse' | 'pen' | 'text' | 'marker' | 'highlight' | 'blur' | 'pixelate';

interface Stroke {
  color: string;
  /** Line width in image pixels. */
  width: number;
}
export type Shape =
  | ({ kind: 'arrow'; x1: number; y1: number; x2: number; y2: number } & Stroke)
  | ({ kind: 'rect' | 'ellipse' | 'highlight'; x: number; y: number; w: number; h: number } & Stroke)
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

/**
 * Draws the picture and the shapes, in order, on a canvas of the picture's size. Blur and pixelate
 * replace the pixels under them (everything drawn so far) with values made from block averages only.
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
        ctx.font = `600 ${s.size}px system-ui, sans-serif`;
        ctx.textBaseline = 'top';
        ctx.lineWidth = Math.max(2, s.size / 8);
        ctx.strokeStyle = 'rgba(255,255,255,0.85)';
        s.text.split('\n').forEach((line, i) => {
          ctx.strokeText(line, s.x, s.y + i * s.size * 1.25);
          ctx.fillText(line, s.x, s.y + i * s.size * 1.25);
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
