import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'composition',
  name: 'Image composition',
  path: '/compositions/new/',
  category: 'Images & documents',
  description: 'Arrange several images into a collage and export it.',
  keywords: ['collage', 'images', 'grid', 'layout', 'composition', 'photo'],
};
