import { moveItem } from '@tinkerdesk/tools/collage';
import { useState } from 'react';
import type { Layout, Picture } from './draw';

const MAX_PICTURES = 60;
const MAX_FILE = 50 * 1024 * 1024;

let nextId = 1;

/** The composition's pictures and the chosen one: adding files, changing, reordering, swapping and removing. */
export function usePictures(layout: Layout) {
  const [pictures, setPictures] = useState<Picture[]>([]);
  const [selected, setSelected] = useState(-1);
  const [error, setError] = useState('');

  async function add(files: File[]) {
    setError('');
    const room = MAX_PICTURES - pictures.length;
    if (room <= 0) return setError(`A composition holds up to ${MAX_PICTURES} pictures.`);
    const added: Picture[] = [];
    const refused: string[] = [];
    for (const file of files.slice(0, room)) {
      try {
        if (file.size > MAX_FILE) throw new Error('too large');
        const bitmap = await createImageBitmap(file);
        const width = Math.round(layout.width / 3);
        const offset = ((pictures.length + added.length) % 6) * Math.round(layout.width / 20);
        added.push({ id: nextId++, name: file.name, bitmap, zoom: 1, panX: 0, panY: 0, free: { x: offset + 20, y: offset + 20, width } });
      } catch {
        refused.push(file.name);
      }
    }
    if (refused.length) setError(`Not a picture this browser can read: ${refused.join(', ')}.`);
    if (added.length) setPictures((list) => [...list, ...added]);
  }

  const replace = (index: number, patch: Partial<Picture>) =>
    setPictures((list) => list.map((p, i) => (i === index ? { ...p, ...patch } : p)));

  /** Moves a picture to another place in the order, and keeps it chosen. */
  function move(from: number, to: number) {
    setPictures((list) => moveItem(list, from, to));
    setSelected(to);
  }

  /** Swaps two pictures (a drag in the grid), the target chosen. */
  function swap(index: number, target: number) {
    setPictures((list) => {
      const next = [...list];
      [next[index], next[target]] = [next[target]!, next[index]!];
      return next;
    });
    setSelected(target);
  }

  function remove(index: number) {
    setPictures((list) => list.filter((_, i) => i !== index));
    setSelected(-1);
  }

  return { pictures, selected, setSelected, error, add, replace, move, swap, remove };
}

export type PictureList = ReturnType<typeof usePictures>;
