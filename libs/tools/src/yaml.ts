import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { Document, isScalar, parseAllDocuments, type YAMLError } from 'yaml';

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
}

export interface YamlToJsonResult {
  json: string;
  /** How many documents the stream held (more than one gives a JSON array of them). */
  documents: number;
}

/** Aliases may expand to at most this many nodes per document (a "billion laughs" stops here). */
const MAX_ALIAS_COUNT = 10_000;

function yamlError(error: YAMLError): ConversionError {
  // The package's message ends with " at line L, column C:" and a snippet; the position is said once, first.
  const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const position = error.linePos?.[0];
  return new ConversionError(reason, position?.line, position?.col);
}

function jsonSpace(indent: JsonIndent): string | number | undefined {
  return indent === 'tab' ? '\t' : indent === 'none' ? undefined : indent;
}

export function yamlToJson(text: string, options: YamlToJsonOptions = {}): YamlToJsonResult {
  const documents = parseAllDocuments(text, { version: '1.2', uniqueKeys: true, prettyErrors: true, resolveKnownTags: false });
  if (!Array.isArray(documents)) {
    // An empty stream (nothing but comments and blank lines), which parseAllDocuments returns as a lone stream-end.
    return { json: '', documents: 0 };
  }
  const values: unknown[] = [];
  for (const doc of documents) {
    const first = doc.errors[0];
    if (first) throw yamlError(first);
    if (isNothing(doc)) continue;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      throw new ConversionError(error instanceof Error ? error.message : String(error));
    }
    values.push(value);
  }
  if (values.length === 0) return { json: '', documents: 0 };
  const value = values.length === 1 ? values[0] : values;
  const json = JSON.stringify(value, jsonSafe, jsonSpace(options.indent ?? 2));
  return { json: json ?? 'null', documents: values.length };
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

export function jsonToYaml(text: string, options: JsonToYamlOptions = {}): string {
  if (!text.trim()) return '';
  const value = parseJson(text);
  const toYaml = (v: unknown) => new Document(v, { version: '1.2' }).toString({ indent: options.indent ?? 2, lineWidth: 0 });
  if (options.documents && Array.isArray(value)) {
    return value.map((item) => `---\n${toYaml(item)}`).join('');
  }
  return toYaml(value);
}
