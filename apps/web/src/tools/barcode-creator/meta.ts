import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'barcode-creator',
  name: 'Barcode creator',
  path: '/tools/displaybarcode/',
  category: 'Barcodes',
  description: 'Make QR codes, Data Matrix, EAN, Code 128 and many more.',
  keywords: ['barcode', 'qr', 'qr code', 'generator', 'ean', 'upc', 'isbn', 'code128', 'datamatrix', 'pdf417', 'aztec', 'create'],
};
