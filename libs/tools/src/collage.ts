/** Layout rules of image compositions (collages): grid cells, crops that fill a cell, free placement. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Columns for count pictures on a canvas of this shape, when the user leaves it to us: cells close to square. */
export function autoColumns(count: number, width: number, height: number): number {
  if (count <= 1) return 1;
  const best = Math.round(Math.sqrt((count * width) / height));
  return Math.min(count, Math.max(1, best));
}

/**
 * The cells of a grid filling width × height with spacing between cells and around the edge. The last
 * row, when shorter, shares the full width among its cells, so the composition has no hole.
 */
export function gridCells(count: number, width: number, height: number, spacing: number, columns = 0): Rect[] {
  if (count <= 0) return [];
  const cols = Math.min(count, columns > 0 ? columns : autoColumns(count, width, height));
  const rows = Math.ceil(count / cols);
  const cellHeight = (height - spacing * (rows + 1)) / rows;
  const cells: Rect[] = [];
  for (let row = 0; row < rows; row++) {
    const inRow = row === rows - 1 ? count - cols * (rows - 1) : cols;
    const cellWidth = (width - spacing * (inRow + 1)) / inRow;
    for (let col = 0; col < inRow; col++) {
      cells.push({
        x: spacing + col * (cellWidth + spacing),
        y: spacing + row * (cellHeight + spacing),
        width: cellWidth,
        height: cellHeight,
      });
    }
  }
  return cells;
}

export interface Crop {
  /** 1 = just fills the cell; up to 4. */
  zoom: number;
  /** -1 (left/top edge of the picture) … 1 (right/bottom edge); 0 centred. */
  panX: number;
  panY: number;
}

/** The part of a picture (source rectangle) that fills a cell without distortion, for a crop. */
export function coverSource(imageWidth: number, imageHeight: number, cellWidth: number, cellHeight: number, crop: Crop): Rect {
  const zoom = Math.min(4, Math.max(1, crop.zoom));
  const scale = Math.max(cellWidth / imageWidth, cellHeight / imageHeight) * zoom;
  const width = Math.min(imageWidth, cellWidth / scale);
  const height = Math.min(imageHeight, cellHeight / scale);
  const clamp = (v: number) => Math.min(1, Math.max(-1, v));
  return {
    x: ((imageWidth - width) * (clamp(crop.panX) + 1)) / 2,
    y: ((imageHeight - height) * (clamp(crop.panY) + 1)) / 2,
    width,
    height,
  };
}

/**
 * The crop after dragging the picture by (dx, dy) output pixels inside its cell: the picture follows
 * the pointer, stopping at its edges.
 */
export function panBy(crop: Crop, imageWidth: number, imageHeight: number, cell: Rect, dx: number, dy: number): Crop {
  const source = coverSource(imageWidth, imageHeight, cell.width, cell.height, crop);
  const scale = cell.width / source.width;
  const spareX = (imageWidth - source.width) * scale;
  const spareY = (imageHeight - source.height) * scale;
  const clamp = (v: number) => Math.min(1, Math.max(-1, v));
  return {
    ...crop,
    panX: spareX > 0 ? clamp(crop.panX - (2 * dx) / spareX) : 0,
    panY: spareY > 0 ? clamp(crop.panY - (2 * dy) / spareY) : 0,
  };
}

/** A new order with the item at from moved to to. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** The index of the cell (or free item, topmost first) under a point; -1 for none. */
export function hitTest(rects: readonly Rect[], x: number, y: number): number {
  for (let i = rects.length - 1; i >= 0; i--) {
    const r = rects[i]!;
    if (x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height) return i;
  }
  return -1;
}
