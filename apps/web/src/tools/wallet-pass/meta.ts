import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'wallet-pass',
  name: 'Google Wallet pass',
  path: '/tools/wallet/google/',
  category: 'Barcodes',
  description: 'Create a Google Wallet pass with your own barcode.',
  keywords: ['wallet', 'google', 'pass', 'ticket', 'card'],
};
