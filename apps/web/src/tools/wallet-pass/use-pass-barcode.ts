import { isTwoDimensional } from '@tinkerdesk/tools/barcode';
import { useMemo } from 'react';
import type { RenderJob } from '../barcode-creator/render-job';
import { useBarcode } from '../barcode-creator/use-barcode';
import type { PassFields } from './draft';

/** The pass's barcode drawn as the wallet shows it; drawn again only when the type or the data changes (not for the alternate text, say). */
export function usePassBarcode(fields: PassFields) {
  const barcodeType = fields.barcode?.type;
  const barcodeValue = fields.barcode?.value;
  const barcodeJob = useMemo<RenderJob | null>(() => {
    if (!barcodeType || barcodeValue === undefined) return null;
    const twoD = isTwoDimensional(barcodeType);
    return {
      bcid: barcodeType,
      text: barcodeValue,
      scale: twoD ? 4 : 3,
      height: twoD ? undefined : 14,
      // Quiet zones, as the wallet draws them (and scanners need).
      margin: twoD ? 2 : 10,
      barColor: '#000000',
      backgroundColor: '#ffffff',
      includeText: false,
      extra: {},
    };
  }, [barcodeType, barcodeValue]);
  const barcode = useBarcode(barcodeJob);
  return { ...barcode, error: fields.barcode ? barcode.error : undefined };
}
