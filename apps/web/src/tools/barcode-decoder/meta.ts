import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'barcode-decoder',
  name: 'Barcode decoder',
  path: '/tools/barcodes/decoder/',
  category: 'Barcodes',
  description: 'Read every barcode in an image you drop, pick or paste.',
  keywords: ['decoder', 'barcode', 'qr', 'image', 'read', 'zxing'],
};
