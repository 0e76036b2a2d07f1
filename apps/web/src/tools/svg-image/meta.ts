import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'svg-image',
  name: 'SVG to image',
  path: '/tools/converters/svg/image/',
  category: 'Images & documents',
  description: 'Rasterise SVG to PNG, JPG or WebP at any size, safely.',
  keywords: ['svg', 'png', 'jpg', 'webp', 'rasterize', 'vector'],
};
