import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'barcode-creator',
  name: 'Barcode creator',
  path: '/tools/displaybarcode/',
  category: 'Barcodes',
  description: 'Make QR codes, Data Matrix, EAN, Code 128 and many more.',
  keywords: ['barcode', 'qr', 'generator', 'ean', 'code128', 'datamatrix', 'create'],
};
