import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'wifi-barcode',
  name: 'WiFi barcode',
  path: '/tools/displaybarcode/wifi/',
  category: 'Barcodes',
  description: 'A QR code that joins a Wi-Fi network when scanned.',
  keywords: ['wifi', 'wi-fi', 'wlan', 'ssid', 'qr', 'qr code', 'network', 'password', 'share'],
};
