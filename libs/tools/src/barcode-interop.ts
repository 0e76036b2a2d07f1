// Which symbologies of the barcode creator (bwip-js) ZXing-C++ (the decoder and scanner) reads, and the
// text it gives for the creator's sample data. Where that text is not the data typed, why: a check digit
// that is part of the symbol, a GS1 string without spaces, a number printed as another symbology.
// barcode-interop.spec.ts draws and reads every one (and fails when bwip-js adds a symbology not listed
// here); the e2e test does the same through the creator and decoder pages.

export interface ZxingReading {
  /** ZXing's format name for it. */
  format: string;
  /** The text read back when it is not the sample data itself. */
  text?: string;
  why?: string;
}

export const ZXING_READS: Readonly<Record<string, ZxingReading>> = {
  ean13: { format: 'EAN13' },
  ean8: { format: 'EAN8' },
  upca: { format: 'EAN13', text: '0012345000058', why: 'ZXing reports UPC-A as EAN-13, with the leading 0' },
  upce: { format: 'UPCE', text: '0012345000058', why: 'expanded to the UPC-A number, as EAN-13 digits' },
  isbn: { format: 'EAN13', text: '9781565812314', why: 'the EAN-13 digits without the hyphens' },
  ismn: { format: 'EAN13', text: '9790260532113', why: 'the EAN-13 digits without the hyphens' },
  issn: { format: 'EAN13', text: '9770311175001', why: 'the EAN-13 (977…) it is printed as' },
  mands: { format: 'EAN8', text: '00642118', why: 'the EAN-8 it is printed as' },
  code128: { format: 'Code128' },
  'gs1-128': { format: 'Code128' },
  ean14: { format: 'Code128', text: '(01)09528765432108', why: 'GS1 element string without the spaces' },
  sscc18: { format: 'Code128', text: '(00)095287654321012346', why: 'GS1 element string without the spaces' },
  code39: { format: 'Code39', text: 'THIS IS CODE 39Q', why: 'with the check character (includecheck)' },
  code39ext: { format: 'Code39Ext', text: 'Code39 Ext!E', why: 'with the check character (includecheck)' },
  code32: { format: 'Code32', text: 'A012345676', why: 'the Code 39 form of the pharmacode: A, the digits and the check digit' },
  pzn: { format: 'Code39', text: '-1234562', why: 'the Code 39 form: -, the digits and the check digit' },
  code93: { format: 'Code93' },
  code93ext: { format: 'Code93' },
  itf14: { format: 'ITF', text: '09521234543213', why: 'the digits without the spaces' },
  identcode: { format: 'ITF' },
  leitcode: { format: 'ITF' },
  databaromni: { format: 'DataBarOmni' },
  databarstacked: { format: 'DataBarStk' },
  databarstackedomni: { format: 'DataBarStk' },
  databartruncated: { format: 'DataBarOmni' },
  databarlimited: { format: 'DataBarLtd' },
  databarexpanded: { format: 'DataBarExp' },
  databarexpandedstacked: { format: 'DataBarExpStk' },
  rationalizedCodabar: { format: 'Codabar', text: 'A01234567892B', why: 'with the check digit (includecheck)' },
  telepen: { format: 'TelepenAlpha' },
  telepennumeric: { format: 'TelepenNumeric' },
  pdf417: { format: 'PDF417' },
  pdf417compact: { format: 'PDF417' },
  micropdf417: { format: 'MicroPDF417' },
  datamatrix: { format: 'DataMatrix' },
  datamatrixrectangular: { format: 'DataMatrix' },
  datamatrixrectangularextension: { format: 'DataMatrix' },
  mailmark: { format: 'DataMatrix' },
  qrcode: { format: 'QRCode' },
  microqrcode: { format: 'MicroQRCode' },
  rectangularmicroqrcode: { format: 'RMQRCode' },
  azteccode: { format: 'Aztec' },
  azteccodecompact: { format: 'Aztec' },
  aztecrune: { format: 'Aztec', text: '001', why: 'ZXing reports a rune as three digits' },
  ean13composite: {
    format: 'EAN13',
    text: '9520123456788',
    why: 'ZXing reads the linear part; it has no reader for the composite component',
  },
  ean8composite: { format: 'EAN8', text: '95200002', why: 'ZXing reads the linear part; it has no reader for the composite component' },
  upcacomposite: { format: 'EAN13', text: '0012345000058', why: 'the linear part, as EAN-13' },
  upcecomposite: { format: 'UPCE', text: '0012345000058', why: 'the linear part, as the UPC-A number' },
  databaromnicomposite: { format: 'DataBarOmni', text: '(01)09521234543213', why: 'the linear part' },
  databarstackedcomposite: { format: 'DataBarStk', text: '(01)09521234543213', why: 'the linear part' },
  databartruncatedcomposite: { format: 'DataBarOmni', text: '(01)09521234543213', why: 'the linear part' },
  databarlimitedcomposite: { format: 'DataBarLtd', text: '(01)09521234543213', why: 'the linear part' },
  gs1datamatrix: { format: 'DataMatrix' },
  gs1qrcode: { format: 'QRCode' },
  hibccode39: {
    format: 'Code39Ext',
    text: 'a999BJC5D6E71.',
    why: 'HIBC: + prefix and check character; ZXing reads the + as Code 39 Extended shift',
  },
  hibccode128: {
    format: 'Code128',
    text: '+A999BJC5D6E71.',
    why: 'HIBC: the + flag character and the check character are part of the data',
  },
  hibcdatamatrix: {
    format: 'DataMatrix',
    text: '+A999BJC5D6E71.',
    why: 'HIBC: the + flag character and the check character are part of the data',
  },
  hibcdatamatrixrectangular: {
    format: 'DataMatrix',
    text: '+A999BJC5D6E71.',
    why: 'HIBC: the + flag character and the check character are part of the data',
  },
  hibcpdf417: { format: 'PDF417', text: '+A999BJC5D6E71.', why: 'HIBC: the + flag character and the check character are part of the data' },
  hibcmicropdf417: {
    format: 'MicroPDF417',
    text: '+A999BJC5D6E71.',
    why: 'HIBC: the + flag character and the check character are part of the data',
  },
  hibcqrcode: { format: 'QRCode', text: '+A999BJC5D6E71.', why: 'HIBC: the + flag character and the check character are part of the data' },
  hibcazteccode: {
    format: 'Aztec',
    text: '+A999BJC5D6E71.',
    why: 'HIBC: the + flag character and the check character are part of the data',
  },
  interleaved2of5: { format: 'ITF', text: '024012345676', why: 'with the check digit, and a leading 0 for an even number of digits' },
  gs1northamericancoupon: { format: 'DataBarExpStk' },
  swissqrcode: {
    format: 'QRCode',
    text: 'SPC\r\n0200\r\n1\r\nCH5800791123000889012\r\nS\r\nRobert Schneider AG\r\nRue du Lac\r\n1268\r\n2501\r\nBiel\r\nCH\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n199.95\r\nCHF\r\nK\r\nPia-Maria Rutschmann-Schnyder\r\nGrosse Marktgasse 28\r\n9400 Rorschach\r\n\r\n\r\nCH\r\nSCOR\r\nRF18539007547034\r\n\r\nEPD',
    why: 'the ^CR^LF escapes of the data (the parse option) are line breaks',
  },
  maxicode: {
    format: 'MaxiCode',
    text: '[)>␞01␝96152382802␝840␝001␝1Z00004951␝UPSN␝06X610␝159␝1234567␝1/1␝␝Y␝634␠ALPHA␠DR␝PITTSBURGH␝PA␝␄',
    why: 'the ^NNN escapes are control characters, which ZXing shows as their symbols (␝ ␞ ␄ ␠)',
  },
  databarstackedomnicomposite: { format: 'DataBarStk', text: '(01)03612345678904', why: 'the linear part' },
  databarexpandedcomposite: { format: 'DataBarExp', text: '(01)09521234543213(3103)001234', why: 'the linear part' },
  databarexpandedstackedcomposite: { format: 'DataBarExpStk', text: '(01)09521234543213(10)ABCDEF', why: 'the linear part' },
  d3aqr: { format: 'QRCode' },
  gs1datamatrixrectangular: { format: 'DataMatrix' },
  gs1dldatamatrix: { format: 'DataMatrix' },
  gs1dlqrcode: { format: 'QRCode' },
};

/** bwip-js symbologies ZXing-C++ does not read (postal, pharmaceutical, stacked and rare codes). */
export const ZXING_DOES_NOT_READ: readonly string[] = [
  'ean5',
  'ean2',
  'pharmacode',
  'pharmacode2',
  'code2of5',
  'industrial2of5',
  'iata2of5',
  'matrix2of5',
  'coop2of5',
  'datalogic2of5',
  'code11',
  'bc412',
  'onecode',
  'postnet',
  'planet',
  'royalmail',
  'auspost',
  'kix',
  'japanpost',
  'msi',
  'plessey',
  'posicode',
  'code16k',
  'code49',
  'channelcode',
  'flattermarken',
  'raw',
  'daft',
  'symbol',
  'codeone',
  'hanxin',
  'dotcode',
  'ultracode',
  'gs1dotcode',
  'codablockf', // Codablock F: ZXing has no reader for it (it reads one row as Code 128)
  'hibccodablockf', // HIBC Codablock F: ZXing has no reader for Codablock F
  'gs1-128composite', // ZXing has no reader for the composite component and, beside it, misses the Code 128
  'gs1-cc', // a GS1 composite component alone: ZXing has no reader for composite components
];
