import { describe, expect, it } from '@jest/globals';
import { detectSourceFormat, pairProblem, SOURCE_FORMATS, sourceFormat, TARGET_FORMATS } from './conversion-formats.js';

describe('the conversion formats', () => {
  it('name a known target for every target of every source, never the source itself', () => {
    for (const format of SOURCE_FORMATS) {
      expect(format.to.length).toBeGreaterThan(0);
      for (const to of format.to) {
        expect(TARGET_FORMATS[to]).toBeDefined();
        expect(to).not.toBe(format.id);
      }
    }
  });

  it('cover the pairs the issue names', () => {
    const can = (from: string, to: string) => pairProblem(sourceFormat(from)!, to) === undefined;
    for (const from of ['docx', 'odt', 'rtf', 'txt', 'html'])
      for (const to of ['pdf', 'docx', 'odt', 'txt']) if (from !== to) expect(can(from, to)).toBe(true);
    for (const from of ['xlsx', 'ods', 'csv'])
      for (const to of ['pdf', 'xlsx', 'ods', 'csv']) if (from !== to) expect(can(from, to)).toBe(true);
    for (const from of ['pptx', 'odp']) for (const to of ['pdf', 'pptx', 'odp']) if (from !== to) expect(can(from, to)).toBe(true);
    for (const to of ['png', 'jpg', 'jpeg']) expect(can('pdf', to)).toBe(true);
    for (const to of ['pdf', 'png']) expect(can('url', to)).toBe(true);
    for (const to of ['png', 'jpg', 'webp', 'avif', 'tiff', 'gif']) expect(can('heif', to)).toBe(true);
  });

  it('say what a source can become when a pair is not supported', () => {
    expect(pairProblem(sourceFormat('docx')!, 'png')).toBe('a Word document (docx) can become pdf, odt or txt, not png');
    expect(pairProblem(sourceFormat('pdf')!, 'docx')).toBe('a PDF document (pages to images) (pdf) can become png or jpg, not docx');
  });

  it('detect a file by its extension, then by its media type', () => {
    expect(detectSourceFormat('Report.DOCX')?.id).toBe('docx');
    expect(detectSourceFormat('photo.jpeg')?.id).toBe('jpg');
    expect(detectSourceFormat('upload', 'image/png; charset=binary')?.id).toBe('png');
    expect(detectSourceFormat('archive.zip', 'application/zip')).toBeUndefined();
  });
});
