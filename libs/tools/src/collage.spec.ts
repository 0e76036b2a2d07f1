import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { autoColumns, coverSource, gridCells, hitTest, moveItem, panBy } from './collage.js';

describe('collage layout', () => {
  it('grids fill the canvas with equal spacing, the last row widened', () => {
    expect(gridCells(4, 820, 620, 20)).toEqual([
      { x: 20, y: 20, width: 380, height: 280 },
      { x: 420, y: 20, width: 380, height: 280 },
      { x: 20, y: 320, width: 380, height: 280 },
      { x: 420, y: 320, width: 380, height: 280 },
    ]);
    const three = gridCells(3, 820, 620, 20, 2);
    expect(three[2]).toEqual({ x: 20, y: 320, width: 780, height: 280 });
    expect(autoColumns(6, 1600, 900)).toBe(3);
    expect(autoColumns(1, 100, 100)).toBe(1);
  });

  it('cells never overlap and stay inside the canvas (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 8 }), (n, spacing, cols) => {
        const cells = gridCells(n, 1600, 1200, spacing, cols);
        expect(cells).toHaveLength(n);
        for (const c of cells) {
          expect(c.x).toBeGreaterThanOrEqual(spacing - 1e-6);
          expect(c.x + c.width).toBeLessThanOrEqual(1600 - spacing + 1e-6);
          expect(c.y + c.height).toBeLessThanOrEqual(1200 - spacing + 1e-6);
        }
        for (let i = 0; i < cells.length; i++)
          for (let j = i + 1; j < cells.length; j++) {
            const [a, b] = [cells[i]!, cells[j]!];
            const apart =
              a.x + a.width <= b.x + 1e-6 || b.x + b.width <= a.x + 1e-6 || a.y + a.height <= b.y + 1e-6 || b.y + b.height <= a.y + 1e-6;
            expect(apart).toBe(true);
          }
      }),
    );
  });

  it('a crop fills the cell without distortion, centred, zoomed and panned within the picture', () => {
    expect(coverSource(200, 100, 100, 100, { zoom: 1, panX: 0, panY: 0 })).toEqual({ x: 50, y: 0, width: 100, height: 100 });
    expect(coverSource(200, 100, 100, 100, { zoom: 1, panX: -1, panY: 0 })).toEqual({ x: 0, y: 0, width: 100, height: 100 });
    expect(coverSource(200, 100, 100, 100, { zoom: 2, panX: 1, panY: 1 })).toEqual({ x: 150, y: 50, width: 50, height: 50 });
    // Dragging the picture right shows more of its left side, up to its edge.
    const cell = { x: 0, y: 0, width: 100, height: 100 };
    expect(panBy({ zoom: 1, panX: 0, panY: 0 }, 200, 100, cell, 50, 0)).toEqual({ zoom: 1, panX: -1, panY: 0 });
    expect(panBy({ zoom: 1, panX: 0, panY: 0 }, 200, 100, cell, 500, 30).panX).toBe(-1);
  });

  it('reorders and finds what is under the pointer', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 3)).toEqual(['b', 'c', 'd', 'a']);
    expect(moveItem(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
    const rects = [
      { x: 0, y: 0, width: 10, height: 10 },
      { x: 5, y: 5, width: 10, height: 10 },
    ];
    expect(hitTest(rects, 7, 7)).toBe(1);
    expect(hitTest(rects, 1, 1)).toBe(0);
    expect(hitTest(rects, 50, 50)).toBe(-1);
  });
});
