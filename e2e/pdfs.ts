// Small PDFs written by hand for the tests: vector shapes in colour, text in the standard Helvetica and
// Times fonts, and a raster image, on pages of different sizes. Offsets in the cross-reference table
// are computed, so pdf.js and poppler read them without repair.

interface PageSpec {
  width: number;
  height: number;
  content: string;
}

function pdfFile(objects: string[]): Buffer {
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

function stream(content: string): string {
  return `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
}

/** A 16 × 16 RGB gradient image, uncompressed. */
function gradientImage(): string {
  let data = '';
  for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) data += String.fromCharCode(x * 16, y * 16, 160);
  return `<< /Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${data.length} >>\nstream\n${data}\nendstream`;
}

export function samplePdf(): Buffer {
  const pages: PageSpec[] = [
    {
      width: 612,
      height: 792,
      content: [
        '0.31 0.27 0.9 rg 72 600 468 120 re f',
        '0.98 0.8 0.08 rg 306 360 m 386 360 l 346 440 l f',
        '0 0.6 0.3 RG 6 w 72 200 m 540 260 l S',
        '0.9 0.1 0.1 rg 150 300 m 150 355 195 400 250 400 c 305 400 350 355 350 300 c 350 245 305 200 250 200 c 195 200 150 245 150 300 c f',
        'BT /F1 36 Tf 0 0 0 rg 90 650 Td (Tinkerdesk PDF test) Tj ET',
        'BT /F2 18 Tf 0.2 0.2 0.2 rg 72 120 Td (Page one: shapes, text and an image.) Tj ET',
        'q 144 0 0 144 400 60 cm /Im1 Do Q',
      ].join('\n'),
    },
    {
      width: 842,
      height: 595,
      content: ['0.06 0.71 0.83 rg 40 40 762 515 re f', 'BT /F1 48 Tf 1 1 1 rg 120 280 Td (Landscape page two) Tj ET'].join('\n'),
    },
    { width: 300, height: 300, content: '0 0 0 rg 50 50 200 200 re f 1 1 1 rg 100 100 100 100 re f' },
  ];
  const objects: string[] = [];
  const first = 5;
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Count ${pages.length} /Kids [${pages.map((_, i) => `${first + i * 2} 0 R`).join(' ')}] >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>');
  pages.forEach((page, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${page.width} ${page.height}] /Contents ${first + i * 2 + 1} 0 R /Resources << /Font << /F1 3 0 R /F2 4 0 R >> /XObject << /Im1 ${first + pages.length * 2} 0 R >> >> >>`,
    );
    objects.push(stream(page.content));
  });
  objects.push(gradientImage());
  return pdfFile(objects);
}
