import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'barcode-scanner',
  name: 'Barcode scanner',
  path: '/tools/barcodes/scanner/',
  category: 'Barcodes',
  description: 'Scan QR codes and barcodes with your camera.',
  keywords: ['scanner', 'barcode', 'qr', 'camera', 'scan'],
};
