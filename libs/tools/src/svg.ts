import render from 'dom-serializer';
import { Element, ProcessingInstruction, Text, type ChildNode, type Document } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/**
 * SVG made safe to draw, without a DOM (it runs in a worker or in tests): scripts, event handlers,
 * embedded HTML (foreignObject, which also taints a canvas) and frames, and every reference to another resource (href, src, CSS url() and @import) are
 * removed, the doctype (and with it entity definitions) dropped, and the intrinsic size worked out.
 * The page then draws it through an <img>, where browsers never run scripts nor load anything: the
 * clean-up is a second wall, and tells the user what was taken out.
 */
export class SvgError extends Error {
  override name = 'SvgError';
}

export interface CleanSvg {
  /** The root <svg> with its viewBox set; width and height are written by markup(). */
  root: Element;
  /** Intrinsic size in CSS pixels. */
  width: number;
  height: number;
  removed: { scripts: number; handlers: number; external: number };
}

const DROP = new Set([
  'script',
  'foreignobject',
  'iframe',
  'object',
  'embed',
  'frame',
  'frameset',
  'link',
  'meta',
  'audio',
  'video',
  'handler',
  'listener',
]);
const LINK_ATTRS = /^(href|xlink:href|src|srcset|poster|data|action|formaction|background)$/i;
/** The size browsers give an image whose SVG says nothing of its size. */
const DEFAULT_SIZE = { width: 300, height: 150 };

/** A local reference (#id) or inline data; everything else would be fetched. */
function isLocal(url: string): boolean {
  const value = url.trim().replace(/^["']|["']$/g, '');
  return value === '' || value.startsWith('#') || /^data:/i.test(value);
}

/** CSS with external url(...) and @import removed; returns the text and how many it removed. */
function cleanCss(css: string): { css: string; removed: number } {
  let removed = 0;
  const out = css
    .replace(/@import\s+[^;]+;?/gi, () => {
      removed++;
      return '';
    })
    .replace(/url\(\s*([^)]*)\)/gi, (whole, inner: string) => {
      if (isLocal(inner)) return whole;
      removed++;
      return 'none';
    })
    .replace(/expression\s*\(/gi, () => {
      removed++;
      return '(';
    });
  return { css: out, removed };
}

const UNITS: Record<string, number> = {
  '': 1,
  px: 1,
  pt: 4 / 3,
  pc: 16,
  mm: 96 / 25.4,
  cm: 96 / 2.54,
  in: 96,
  q: 96 / 101.6,
  em: 16,
  rem: 16,
  ex: 8,
};

/** An SVG length in CSS pixels; undefined for percentages, auto or nonsense. */
export function svgLength(value: string | undefined): number | undefined {
  const match = /^\s*([+]?\d*\.?\d+(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(value ?? '');
  if (!match) return undefined;
  const factor = UNITS[match[2]!.toLowerCase()];
  const px = factor === undefined ? undefined : Number(match[1]) * factor;
  return px !== undefined && px > 0 && Number.isFinite(px) ? px : undefined;
}

function viewBox(value: string | undefined): { width: number; height: number } | undefined {
  const parts = (value ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n)) || parts[2]! <= 0 || parts[3]! <= 0) return undefined;
  return { width: parts[2]!, height: parts[3]! };
}

function rootOf(document: Document): Element {
  const elements = document.children.filter((n): n is Element => n instanceof Element);
  const root = elements[0];
  if (!root) throw new SvgError('This is not an SVG image: there is no <svg> element in it.');
  if (root.name.toLowerCase().replace(/^svg:/, '') !== 'svg')
    throw new SvgError(`This is not an SVG image: its root element is <${root.name}>, not <svg>.`);
  return root;
}

export function cleanSvg(text: string): CleanSvg {
  if (!/<(svg:)?svg[\s/>]/i.test(text)) {
    throw new SvgError(
      text.trim() === '' ? 'Paste SVG markup or drop an .svg file.' : 'This is not an SVG image: there is no <svg> element in it.',
    );
  }
  const document = parseDocument(text, { xmlMode: true, decodeEntities: true });
  const removed = { scripts: 0, handlers: 0, external: 0 };
  const walk = (nodes: ChildNode[], parent: { children: ChildNode[] }) => {
    for (const node of [...nodes]) {
      if (node instanceof ProcessingInstruction) {
        parent.children.splice(parent.children.indexOf(node), 1);
        continue;
      }
      if (node instanceof Text && node.parent instanceof Element && node.parent.name.toLowerCase() === 'style') {
        const clean = cleanCss(node.data);
        removed.external += clean.removed;
        node.data = clean.css;
        continue;
      }
      if (!(node instanceof Element)) continue;
      const local = node.name.toLowerCase().replace(/^[a-z]+:/, '');
      if (DROP.has(local)) {
        if (local === 'script' || local === 'handler' || local === 'listener') removed.scripts++;
        else removed.external++;
        parent.children.splice(parent.children.indexOf(node), 1);
        continue;
      }
      for (const [name, value] of Object.entries(node.attribs)) {
        if (/^on/i.test(name)) {
          delete node.attribs[name];
          removed.handlers++;
        } else if (LINK_ATTRS.test(name) && !isLocal(value)) {
          delete node.attribs[name];
          if (/^\s*javascript:/i.test(value)) removed.scripts++;
          else if (local !== 'a') removed.external++;
        } else if (name.toLowerCase() === 'style' || /url\(/i.test(value)) {
          const clean = cleanCss(value);
          removed.external += clean.removed;
          node.attribs[name] = clean.css;
        }
      }
      walk(node.children, node);
    }
  };
  walk(document.children, document);
  const root = rootOf(document);
  const box = viewBox(root.attribs.viewBox);
  let width = svgLength(root.attribs.width);
  let height = svgLength(root.attribs.height);
  if (box) {
    width ??= height !== undefined ? (height * box.width) / box.height : box.width;
    height ??= (width * box.height) / box.width;
  }
  width ??= DEFAULT_SIZE.width;
  height ??= DEFAULT_SIZE.height;
  if (!box) root.attribs.viewBox = `0 0 ${width} ${height}`;
  if (!root.attribs.xmlns) root.attribs.xmlns = 'http://www.w3.org/2000/svg';
  return { root, width, height, removed };
}

/** The clean SVG drawn at this size (the viewBox scales it; preserveAspectRatio="none" when the proportions were changed). */
export function svgMarkup(svg: CleanSvg, width: number, height: number): string {
  const attribs: Record<string, string> = { ...svg.root.attribs, width: String(width), height: String(height) };
  const stretched = Math.abs(width / height - svg.width / svg.height) > 0.01;
  if (stretched) attribs.preserveAspectRatio = 'none';
  const saved = svg.root.attribs;
  svg.root.attribs = attribs;
  try {
    return render(svg.root, { xmlMode: true, decodeEntities: true, encodeEntities: 'utf8' });
  } finally {
    svg.root.attribs = saved;
  }
}

/** "1 script, 2 external references" — what cleanSvg took out, for people; '' when nothing. */
export function removedSummary(removed: CleanSvg['removed']): string {
  const parts: string[] = [];
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (removed.scripts) parts.push(plural(removed.scripts, 'script', 'scripts'));
  if (removed.handlers) parts.push(plural(removed.handlers, 'event handler', 'event handlers'));
  if (removed.external) parts.push(plural(removed.external, 'external reference', 'external references'));
  return parts.join(', ');
}
