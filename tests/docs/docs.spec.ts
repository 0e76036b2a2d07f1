// The README and docs/ stay navigable: every relative link points to a file of the repository and,
// with a #fragment, to a heading of that file (GitHub's anchors); every environment variable that a
// process reads (its config.ts schema) is in the configuration reference.
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import markdownIt, { type Token } from 'markdown-it';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const MARKDOWN_FILES = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(DOCS, f)),
];
const md = markdownIt();

const tokensOf = (file: string): Token[] => md.parse(readFileSync(file, 'utf8'), {});

/** The text of an inline token as GitHub renders it (code spans keep their content, without backticks). */
const plainText = (inline: Token): string =>
  (inline.children ?? []).map((t) => (t.type === 'text' || t.type === 'code_inline' ? t.content : '')).join('');

/** GitHub's heading anchor: lower case, punctuation other than '-' and '_' dropped, spaces to '-', repeats numbered. */
function headingAnchors(tokens: Token[]): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  tokens.forEach((token, i) => {
    const inline = tokens[i + 1];
    if (token.type !== 'heading_open' || inline === undefined) return;
    const base = plainText(inline)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  });
  return anchors;
}

/** Every link target of a file, with the line it is on. */
function linksOf(tokens: Token[]): { href: string; line: number }[] {
  const links: { href: string; line: number }[] = [];
  let line = 1; // table cells carry no line of their own: the last one seen
  for (const block of tokens) {
    if (block.map) line = block.map[0] + 1;
    for (const child of block.children ?? []) {
      const href = child.type === 'link_open' ? child.attrGet('href') : null;
      if (href !== null) links.push({ href: String(href), line });
    }
  }
  return links;
}

const isRelative = (href: string): boolean => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('//');

/** What is wrong with one relative link of `file`, or null. */
function brokenLink(file: string, href: string): string | null {
  const [path = '', fragment] = href.split('#', 2);
  const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
  if (!target.startsWith(ROOT)) return `${href} leaves the repository`;
  if (!existsSync(target)) return `${href}: no file ${relative(ROOT, target)}`;
  if (fragment === undefined) return null;
  if (!target.endsWith('.md') || statSync(target).isDirectory()) return `${href}: a #fragment on a file that is not Markdown`;
  return headingAnchors(tokensOf(target)).has(decodeURIComponent(fragment))
    ? null
    : `${href}: no heading #${fragment} in ${relative(ROOT, target)}`;
}

describe('README and docs/', () => {
  it.each(MARKDOWN_FILES.map((f) => [relative(ROOT, f), f] as const))('%s: every relative link resolves', (_name, file) => {
    const broken = linksOf(tokensOf(file))
      .filter((l) => isRelative(l.href))
      .map((l) => ({ line: l.line, problem: brokenLink(file, l.href) }))
      .filter((l) => l.problem !== null)
      .map((l) => `line ${l.line}: ${l.problem}`);
    expect(broken).toEqual([]);
  });

  it('the link check itself finds a missing file and a missing heading', () => {
    const readme = join(ROOT, 'README.md');
    expect(brokenLink(readme, 'docs/no-such-page.md')).toContain('no file');
    expect(brokenLink(readme, 'docs/architecture.md#no-such-heading')).toContain('no heading');
    expect(brokenLink(readme, 'docs/architecture.md#recipe-add-an-endpoint')).toBeNull();
  });

  it('anchors follow GitHub: punctuation dropped, code kept, repeats numbered', () => {
    const anchors = headingAnchors(md.parse('# Client addresses (`TRUST_PROXY`)\n## Calling /v1\n## Calling /v1\n', {}));
    expect([...anchors]).toEqual(['client-addresses-trust_proxy', 'calling-v1', 'calling-v1-1']);
  });
});

/** Source files (not dependencies, builds or generated code) under the given folders. */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'generated'].includes(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

describe('citations of docs/ in the code', () => {
  const files = ['apps', 'libs', 'e2e', 'tests', 'scripts', 'bench']
    .flatMap((d) => sourceFiles(join(ROOT, d)))
    .filter((f) => f !== fileURLToPath(import.meta.url)); // this file names broken links on purpose

  it('every docs/<page>.md#heading and docs/<page>.md "Label" a source file names exists', () => {
    const broken: string[] = [];
    let cited = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/docs\/([a-z-]+\.md)(#[\w-]+)?(,? "([^"]+)")?/g)) {
        cited++;
        const [, page = '', fragment, , label] = m;
        const problem = brokenLink(join(ROOT, 'README.md'), `docs/${page}${fragment ?? ''}`);
        if (problem !== null) broken.push(`${relative(ROOT, file)}: ${problem}`);
        else if (label !== undefined && !readFileSync(join(DOCS, page), 'utf8').includes(label)) {
          broken.push(`${relative(ROOT, file)}: no "${label}" in docs/${page}`);
        }
      }
    }
    expect(cited).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });
});

describe('docs/configuration.md', () => {
  const CONFIG_FILES = [
    ...readdirSync(join(ROOT, 'apps'))
      .map((app) => join(ROOT, 'apps', app, 'src', 'config.ts'))
      .filter((f) => existsSync(f)),
    ...['config.ts', 'file-store.ts', 'saved-file-storage.ts'].map((f) => join(ROOT, 'libs', 'nest-common', 'src', f)),
  ];
  /** The keys of the schemas: upper-case properties whose value is a field (`env.int(...)`, `trustProxyField()`, ...). */
  const variablesOf = (file: string): string[] =>
    [...readFileSync(file, 'utf8').matchAll(/^\s+([A-Z][A-Z0-9_]+): [A-Za-z.]+\(/gm)].map((m) => m[1] ?? '');

  it('lists every variable of every config.ts', () => {
    const reference = readFileSync(join(DOCS, 'configuration.md'), 'utf8');
    const variables = [...new Set(CONFIG_FILES.flatMap(variablesOf))];
    expect(variables.length).toBeGreaterThan(90);
    expect(variables.filter((v) => !reference.includes(`\`${v}\``))).toEqual([]);
  });
});
