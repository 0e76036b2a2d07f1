import { describe, expect, it } from '@jest/globals';
import { cleanSvg, removedSummary, svgLength, svgMarkup, SvgError } from './svg.js';

describe('cleanSvg', () => {
  it('removes scripts, handlers, external references, imports and the doctype, keeping local ones', () => {
    const svg = cleanSvg(`<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY a "aaaaaaaa">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100" onload="alert(1)">
  <style>@import url(https://evil.test/a.css); .x { fill: url(#g); background: url('https://evil.test/b.png') }</style>
  <script>alert(2)</script>
  <defs><linearGradient id="g"/></defs>
  <image href="https://evil.test/c.png" width="10" height="10"/>
  <image xlink:href="data:image/png;base64,AAAA" width="10" height="10"/>
  <use href="#g"/>
  <a href="javascript:alert(3)"><rect width="5" height="5" style="fill: url(http://evil.test/d)"/></a>
  <foreignObject><iframe src="https://evil.test/e"/></foreignObject>
</svg>`);
    const out = svgMarkup(svg, 200, 100);
    expect(out).not.toMatch(/evil\.test|script|alert|onload|DOCTYPE|ENTITY|javascript/i);
    expect(out).toContain('url(#g)');
    expect(out).toContain('href="#g"');
    expect(out).toContain('xlink:href="data:image/png;base64,AAAA"');
    expect(svg.removed).toEqual({ scripts: 2, handlers: 1, external: 5 });
    expect(removedSummary(svg.removed)).toBe('2 scripts, 1 event handler, 5 external references');
  });

  it('works out the intrinsic size from width, height and viewBox, in any unit', () => {
    expect(cleanSvg('<svg width="2in" height="1in"/>')).toMatchObject({ width: 192, height: 96 });
    expect(cleanSvg('<svg viewBox="0 0 40 20"/>')).toMatchObject({ width: 40, height: 20 });
    expect(cleanSvg('<svg width="80" viewBox="0 0 40 20"/>')).toMatchObject({ width: 80, height: 40 });
    expect(cleanSvg('<svg width="100%" height="100%"/>')).toMatchObject({ width: 300, height: 150 });
    expect(svgLength('10mm')).toBeCloseTo(37.795, 2);
    expect(svgLength('-4')).toBeUndefined();
    expect(svgLength('12furlongs')).toBeUndefined();
  });

  it('draws at a chosen size through the viewBox, stretching only when the proportions change', () => {
    const svg = cleanSvg('<svg width="10" height="5"><rect width="10" height="5"/></svg>');
    const twice = svgMarkup(svg, 20, 10);
    expect(twice).toMatch(/^<svg [^>]*width="20" height="10"/);
    expect(twice).toContain('viewBox="0 0 10 5"');
    expect(twice).not.toContain('preserveAspectRatio');
    expect(svgMarkup(svg, 20, 20)).toContain('preserveAspectRatio="none"');
    // The source is not changed by drawing it.
    expect(svgMarkup(svg, 10, 5)).toMatch(/width="10" height="5"/);
  });

  it('says plainly when the input is not SVG', () => {
    expect(() => cleanSvg('')).toThrow(new SvgError('Paste SVG markup or drop an .svg file.'));
    expect(() => cleanSvg('hello')).toThrow('This is not an SVG image: there is no <svg> element in it.');
    expect(() => cleanSvg('<html><svg/></html>')).toThrow('This is not an SVG image: its root element is <html>, not <svg>.');
  });
});
