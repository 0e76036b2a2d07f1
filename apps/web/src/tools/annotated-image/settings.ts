import { setting } from '../../shared/ui/url-settings';
import type { Tool } from './shapes';

/** The drawing tools, each with its key. */
export const TOOLS: Array<{ id: Tool; label: string; key: string }> = [
  { id: 'arrow', label: 'Arrow', key: 'a' },
  { id: 'rect', label: 'Rectangle', key: 'r' },
  { id: 'ellipse', label: 'Ellipse', key: 'e' },
  { id: 'pen', label: 'Pen', key: 'p' },
  { id: 'text', label: 'Text', key: 't' },
  { id: 'marker', label: 'Number', key: 'n' },
  { id: 'highlight', label: 'Highlight', key: 'h' },
  { id: 'cover', label: 'Cover', key: 'c' },
  { id: 'blur', label: 'Blur', key: 'b' },
  { id: 'pixelate', label: 'Pixelate', key: 'x' },
];
/** The tool, colour, size and format, kept in the page's address. */
export const SETTINGS = {
  tool: setting.choice(
    TOOLS.map((t) => t.id),
    'arrow',
  ),
  color: setting.color('#e11d48'),
  size: setting.choice(['s', 'm', 'l'] as const, 'm'),
  format: setting.choice(['png', 'jpeg'] as const, 'png'),
};
