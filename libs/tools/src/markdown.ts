import markdownIt, { type MarkdownIt, type StateCore } from 'markdown-it';

/**
 * Markdown to HTML: CommonMark (markdown-it, which passes every example of the CommonMark spec), and
 * with gfm the GitHub additions: tables, strikethrough, task lists and autolinks (www., http(s)://,
 * e-mail addresses). The HTML is the converter's output; the page sanitizes it before showing it.
 */
export interface MarkdownOptions {
  /** GitHub Flavored Markdown extensions (default true). */
  gfm?: boolean;
  /** Keep raw HTML written in the Markdown (default true, as CommonMark says); off escapes it. */
  html?: boolean;
  /** Turn single line breaks into <br> (GitHub comments do; CommonMark does not). */
  breaks?: boolean;
}

const TASK = /^\[([ xX])\][ \t]/;

/** GFM task list items: a list item whose text starts with [ ] or [x] gets a disabled checkbox. */
function taskLists(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'task-lists', (state: StateCore) => {
    const tokens = state.tokens;
    for (let i = 2; i < tokens.length; i++) {
      const inline = tokens[i]!;
      if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
      const first = inline.children?.[0];
      const match = first && first.type === 'text' ? TASK.exec(first.content) : null;
      if (!first || !match) continue;
      const checked = match[1] !== ' ';
      first.content = first.content.slice(3);
      const box = new state.Token('html_inline', '', 0);
      box.content = `<input class="task-list-item-checkbox" type="checkbox" disabled=""${checked ? ' checked=""' : ''}>`;
      inline.children!.unshift(box);
      tokens[i - 2]!.attrJoin('class', 'task-list-item');
      // The list holding it is a task list (GitHub marks it so for styling).
      for (let j = i - 3; j >= 0; j--) {
        const t = tokens[j]!;
        if ((t.type === 'bullet_list_open' || t.type === 'ordered_list_open') && t.level === tokens[i - 2]!.level - 1) {
          if (!String(t.attrGet('class') ?? '').includes('contains-task-list')) t.attrJoin('class', 'contains-task-list');
          break;
        }
      }
    }
  });
}

/**
 * GFM autolinks: URLs with a scheme and e-mail addresses (linkify-it), and addresses that start with
 * "www." (linked as http://), with GFM's rules for where such a link ends. linkify-it's fuzzy mode
 * would also link bare "example.com", which GFM does not, and costs more than the rest of the parse.
 */
const WWW_DOMAIN = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)+/u;
const WWW_REST = /^[^\s<]*/;

/** The length of a www. link's tail (after "www.") at the start of text, 0 when there is none. */
export function wwwLinkLength(tail: string): number {
  const domain = WWW_DOMAIN.exec(tail)?.[0];
  if (!domain) return 0;
  // No underscore in the last two labels of the domain.
  if (
    domain
      .split('.')
      .slice(-2)
      .some((label) => label.includes('_'))
  )
    return 0;
  let link = domain + (WWW_REST.exec(tail.slice(domain.length))?.[0] ?? '');
  for (;;) {
    const before = link;
    link = link.replace(/[?!.,:*_~]+$/, '');
    if (link.endsWith(')')) {
      let open = 0;
      let close = 0;
      for (const c of link) {
        if (c === '(') open++;
        else if (c === ')') close++;
      }
      if (close > open) link = link.slice(0, -1);
    }
    link = link.replace(/&[a-z0-9]+;$/i, '');
    if (link === before) break;
  }
  return link.length >= domain.length ? link.length : 0;
}

function gfmAutolinks(md: MarkdownIt): void {
  md.linkify.add('www.', {
    validate: (text: string, pos: number) => wwwLinkLength(text.slice(pos)),
    normalize: (match: { url: string }) => {
      match.url = `http://${match.url}`;
    },
  });
}

/**
 * An empty block quote is written "<blockquote>\n</blockquote>", as the CommonMark reference renderer
 * (and its spec examples) write it; markdown-it would put both tags on one line.
 */
function emptyBlockquotes(md: MarkdownIt): void {
  md.renderer.rules.blockquote_open = (tokens, idx, options, _env, self) => {
    const html = self.renderToken(tokens, idx, options);
    return tokens[idx + 1]?.type === 'blockquote_close' ? `${html}\n` : html;
  };
}

const cache = new Map<string, MarkdownIt>();

function converter(options: MarkdownOptions): MarkdownIt {
  const gfm = options.gfm ?? true;
  const html = options.html ?? true;
  const breaks = options.breaks ?? false;
  const key = `${gfm}|${html}|${breaks}`;
  let md = cache.get(key);
  if (!md) {
    md = gfm ? markdownIt('default', { html, breaks, linkify: true, xhtmlOut: true }) : markdownIt('commonmark', { html, breaks });
    md.use(emptyBlockquotes);
    if (gfm) md.use(gfmAutolinks).use(taskLists);
    cache.set(key, md);
  }
  return md;
}

export function markdownToHtml(markdown: string, options: MarkdownOptions = {}): string {
  return converter(options).render(markdown);
}

/** A complete HTML document around a converted fragment, for saving as a file. */
export function htmlDocument(body: string, title: string): string {
  const safeTitle = title.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
  return `<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${safeTitle}</title>\n</head>\n<body>\n${body}</body>\n</html>\n`;
}

/** The text of the first heading, for a document title. */
export function firstHeading(markdown: string): string | undefined {
  const match = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(markdown);
  return match?.[1]?.trim();
}
