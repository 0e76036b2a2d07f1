import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'epub',
  name: 'EPUB creation',
  path: '/tools/epub/',
  category: 'Images & documents',
  description: 'Write or paste chapters and get a valid EPUB 3 e-book.',
  keywords: ['epub', 'ebook', 'book', 'markdown', 'publish'],
  resources: [{ title: 'EPUB 3 specification', url: 'https://www.w3.org/TR/epub-33/' }],
};
