import type { ToolCategory } from './types';

/** The order in which categories are shown (All Tools panel, /tools/, home). */
export const CATEGORIES: readonly ToolCategory[] = ['Converters', 'Text', 'Generators', 'Images & documents', 'Barcodes'];

export const CATEGORY_BLURBS: Record<ToolCategory, string> = {
  Converters: 'Base64, data URIs, Markdown, YAML and JSON, byte sizes',
  Text: 'ROT13 and word count',
  Generators: 'Passwords, GUIDs and counters',
  'Images & documents': 'PDF and SVG to images, compositions, annotations, EPUB',
  Barcodes: 'Create, scan and decode codes; WiFi codes and wallet passes',
};
