import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { Document, isAlias, isMap, isScalar, isSeq, parseAllDocuments, visit, type Node, type YAMLError } from 'yaml';

/**
 * YAML 1.2 ⇄ JSON with the `yaml` package (which passes the YAML test suite). Multi-document streams
 * become a JSON array (and a JSON array can become a stream); anchors and aliases are resolved, with a
 * bound against alias bombs; every error says where: "Line 3, column 5: ...".
 */

/** A conversion error at a place in the input (1-based line and column), or in the whole input. */
export class ConversionError extends Error {
  override name = 'ConversionError';
  constructor(
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(line !== undefined && column !== undefined ? `Line ${line}, column ${column}: ${reason}` : reason);
  }
}

export type JsonIndent = 2 | 4 | 'tab' | 'none';

export interface YamlToJsonOptions {
  indent?: JsonIndent;
  /**
   * Merge keys (`<<: *base`, from YAML 1.1 and used by docker-compose, GitLab CI, Rails and many more):
   * the aliased mapping's keys are copied in where not set. On by default; off reads `<<` as a plain key,
   * as strict YAML 1.2 does.
   */
  merge?: boolean;
}

export interface YamlToJsonResult {
  json: string;
  /** How many documents the stream held (more than one gives a JSON array of them). */
  documents: number;
}

/** Aliases may expand to at most this many nodes per document (a "billion laughs" stops here). */
const MAX_ALIAS_COUNT = 10_000;

function yamlError(error: YAMLError, errors: readonly YAMLError[], text: string): ConversionError {
  // A line indented deeper than it should be continues the plain value above it, which the package
  // reports as a key spanning lines, at the start of that value (the line above). The mistake is on the
  // line where the key ends: point there, at its first character.
  const spanning = errors.find(
    (e) => e.code === 'MULTILINE_IMPLICIT_KEY' && e.linePos && e.linePos[1] && e.linePos[1].line > e.linePos[0].line,
  );
  if (spanning?.linePos?.[1] && (error === spanning || error.code === 'BLOCK_AS_IMPLICIT_KEY')) {
    const from = spanning.linePos[0].line;
    const line = spanning.linePos[1].line;
    return new ConversionError(
      `Bad indentation: this line continues the value on line ${from}, and a key must be on one line (indent it like the key it belongs beside)`,
      line,
      firstColumn(text, line),
    );
  }
  // The package's message ends with " at line L, column C:" and a snippet; the position is said once, first.
  const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const position = error.linePos?.[0];
  // "All mapping items must start at the same column" points at the line's first column; the key is where
  // its text starts.
  const column = position && error.code === 'BAD_INDENT' ? firstColumn(text, position.line) : position?.col;
  return new ConversionError(reason, position?.line, column);
}

/** The 1-based column of the first character of a line that is not a space (1 for a blank line). */
function firstColumn(text: string, line: number): number {
  const content = text.split(/\r\n|\r|\n/)[line - 1] ?? '';
  const at = content.search(/[^ ]/);
  return at === -1 ? 1 : at + 1;
}

function jsonSpace(indent: JsonIndent): string | number | undefined {
  return indent === 'tab' ? '\t' : indent === 'none' ? undefined : indent;
}

export function yamlToJson(text: string, options: YamlToJsonOptions = {}): YamlToJsonResult {
  const merge = options.merge ?? true;
  const documents = parseAllDocuments(text, { version: '1.2', uniqueKeys: true, prettyErrors: true, resolveKnownTags: false, merge });
  if (!Array.isArray(documents)) {
    // An empty stream (nothing but comments and blank lines), which parseAllDocuments returns as a lone stream-end.
    return { json: '', documents: 0 };
  }
  const values: unknown[] = [];
  for (const doc of documents) {
    const first = doc.errors[0];
    if (first) throw yamlError(first, doc.errors, text);
    if (isNothing(doc)) continue;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      throw toJsError(error, doc, text);
    }
    values.push(value);
  }
  if (values.length === 0) return { json: '', documents: 0 };
  const value = values.length === 1 ? values[0] : values;
  const json = JSON.stringify(value, jsonSafe, jsonSpace(options.indent ?? 2));
  return { json: json ?? 'null', documents: values.length };
}

/** An error while building the value: a merge key with something other than mappings gets its place. */
function toJsError(error: unknown, doc: Document.Parsed, text: string): ConversionError {
  const message = error instanceof Error ? error.message : String(error);
  if (/^Merge sources/.test(message)) {
    const isMapping = (node: unknown): boolean => isMap(node) || (isAlias(node) && isMap(node.resolve(doc)));
    let at: number | undefined;
    visit(doc, {
      Pair(_, pair) {
        const key = pair.key;
        if (!isScalar(key) || key.source !== '<<' || !key.range) return;
        const value = pair.value as Node | null;
        if (isMapping(value) || (isSeq(value) && value.items.every(isMapping))) return;
        at = key.range[0];
        return visit.BREAK;
      },
    });
    if (at !== undefined) {
      const { line, column } = lineColumn(text, at);
      return new ConversionError('A merge key (<<) takes a mapping or an alias of one (<<: *base), or a list of them', line, column);
    }
  }
  return new ConversionError(message);
}

/**
 * Not a document: what the parser returns for a "..." marker or comments with no "---" and no content
 * (YAML has no document there; the test suite counts none).
 */
function isNothing(doc: Document.Parsed): boolean {
  const contents = doc.contents;
  return (
    !doc.directives.docStart &&
    isScalar(contents) &&
    contents.source === '' &&
    !contents.tag &&
    !contents.anchor &&
    contents.range?.[0] === contents.range?.[1]
  );
}

/**
 * JSON has no Infinity or NaN: .inf and .nan are refused rather than silently made null. (YAML 1.1
 * tags such as !!set, !!omap and !!binary are not resolved: they stay the map, list or text they are
 * written as, which is what the YAML test suite expects.)
 */
function jsonSafe(key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new ConversionError(
      `${key ? `The value of "${key}"` : 'A value'} is ${String(value)} (.inf or .nan), which JSON cannot represent`,
    );
  }
  return value;
}

export interface JsonToYamlOptions {
  indent?: 2 | 4;
  /** A top-level JSON array becomes a stream of documents, one per element. */
  documents?: boolean;
}

/** The 1-based line and column of a 0-based offset in text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: 'Unexpected character',
  InvalidNumberFormat: 'Invalid number',
  PropertyNameExpected: 'Expected a property name in double quotes',
  ValueExpected: 'Expected a value',
  ColonExpected: "Expected ':' after the property name",
  CommaExpected: "Expected ',' between values",
  CloseBraceExpected: "Expected '}'",
  CloseBracketExpected: "Expected ']'",
  EndOfFileExpected: 'Unexpected text after the JSON value',
  InvalidCommentToken: 'JSON does not allow comments',
  UnexpectedEndOfComment: 'Unfinished comment',
  UnexpectedEndOfString: 'Unterminated string',
  UnexpectedEndOfNumber: 'Unfinished number',
  InvalidUnicode: 'Invalid \\u escape',
  InvalidEscapeCharacter: 'Invalid escape sequence',
  InvalidCharacter: 'Control character in a string (write it as an escape such as \\n or \\t)',
};

/**
 * JSON.parse, with the place of an error. Engines word JSON errors differently and some give no
 * position at all, so the place and reason come from jsonc-parser's scanner (run only on failure, in
 * strict mode: no comments, no trailing commas).
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const found: ParseError[] = [];
    parseTree(text, found, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = found[0];
    if (!first) throw new ConversionError(error instanceof Error ? error.message : String(error));
    const { line, column } = lineColumn(text, first.offset);
    const token = text.slice(first.offset, first.offset + Math.min(first.length, 20));
    const reason = JSON_ERRORS[printParseErrorCode(first.error)] ?? 'Invalid JSON';
    const detail = first.offset >= text.trimEnd().length ? ': the JSON ends too early' : token ? `, found ${JSON.stringify(token)}` : '';
    throw new ConversionError(reason + detail, line, column);
  }
}

/**
 * Plain scalars that YAML 1.1 readers (PyYAML, SnakeYAML, go-yaml v2, Ruby's Psych, older tools) take as
 * something other than text, though YAML 1.2 reads them as strings: booleans in any letter case (yes, No,
 * ON, y ...), numbers with underscores, 0b binaries, sexagesimal 1:20, timestamps, the merge key << and
 * the value key =. (Forms that YAML 1.2 also reads as non-strings, such as true, 0777, 1e3 or null, the
 * yaml package quotes already.)
 */
const YAML11_NOT_TEXT = [
  /^(?:y|yes|n|no|true|false|on|off)$/i,
  /^(?:~|null)$/i,
  /^[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0[0-7_]+|0|[1-9][0-9_]*)$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/,
  /^[-+]?(?:(?:[0-9][0-9_]*)?\.[0-9_]*|[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)?$/,
  // An exponent alone is a float to some readers (the yaml package's 1.1 schema reads e0 as 0).
  /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
  /^[-+]?\.inf$/i,
  /^\.nan$/i,
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?$/,
  /^(?:<<|=)$/,
];

/** Whether a YAML 1.1 reader would read this text, written plain, as something other than this string. */
export function ambiguousInYaml11(text: string): boolean {
  return YAML11_NOT_TEXT.some((pattern) => pattern.test(text));
}

/**
 * JSON as YAML 1.2 that YAML 1.1 readers read the same: strings they would take for booleans, numbers,
 * dates or merge keys are double-quoted, keys and values alike (`"on": "yes"`, not `on: yes`, which a
 * 1.1 reader turns into `True: True`).
 */
export function jsonToYaml(text: string, options: JsonToYamlOptions = {}): string {
  if (!text.trim()) return '';
  const value = parseJson(text);
  const toYaml = (v: unknown) => {
    const doc = new Document(v, { version: '1.2' });
    visit(doc, {
      Scalar(_, node) {
        if (typeof node.value === 'string' && ambiguousInYaml11(node.value)) node.type = 'QUOTE_DOUBLE';
      },
    });
    return doc.toString({ indent: options.indent ?? 2, lineWidth: 0 });
  };
  if (options.documents && Array.isArray(value)) {
    return value.map((item) => `---\n${toYaml(item)}`).join('');
  }
  return toYaml(value);
}
