import { describe, expect, it } from '@jest/globals';
import { engineOf, engineProblem, engineStatus, formatsWithEngines } from './conversion-engines.js';
import { SOURCE_FORMATS, sourceFormat } from './conversion-formats.js';

describe('the engines of the live workers', () => {
  it('give each format its engine', () => {
    expect(['png', 'docx', 'xlsx', 'pptx', 'pdf', 'url'].map((id) => engineOf(sourceFormat(id)!))).toEqual([
      'images',
      'libreoffice',
      'libreoffice',
      'libreoffice',
      'pdf-pages',
      'chromium',
    ]);
  });

  it('are the union of what the workers announced; missing is what none has', () => {
    expect(engineStatus([['images'], ['images', 'chromium']])).toEqual({
      workers: 2,
      available: ['images', 'chromium'],
      missing: ['libreoffice', 'pdf-pages'],
    });
  });

  it('know nothing missing while no worker is live', () => {
    expect(engineStatus([])).toEqual({ workers: 0, available: [], missing: [] });
    expect(formatsWithEngines(engineStatus([]))).toEqual(SOURCE_FORMATS);
  });

  it('leave out the formats of a missing engine, and refuse them naming it', () => {
    const status = engineStatus([['images', 'pdf-pages', 'chromium']]);
    const ids = formatsWithEngines(status).map((f) => f.id);
    expect(ids).toContain('png');
    expect(ids).toContain('url');
    expect(ids).not.toContain('docx');
    expect(ids).not.toContain('csv');
    expect(engineProblem(status, sourceFormat('docx')!)).toMatch(/LibreOffice.*\(engine libreoffice\).*Word document \(docx\)/);
    expect(engineProblem(status, sourceFormat('png')!)).toBeUndefined();
  });
});
