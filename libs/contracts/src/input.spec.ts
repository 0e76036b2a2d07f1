import { describe, expect, it } from '@jest/globals';
import 'reflect-metadata';
import { validateSync } from 'class-validator';
import fc from 'fast-check';
import { inputProblem, MAX_INPUT_ARRAY, MAX_INPUT_DEPTH, Optional } from './input.js';

const nestedObject = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe('inputProblem', () => {
  it('passes any JSON value without NUL that nests no deeper than the bound', () => {
    const json = fc.jsonValue({ maxDepth: 10 }).filter((v) => !JSON.stringify(v).includes('\\u0000'));
    fc.assert(fc.property(json, (value) => inputProblem(value, 'the body') === undefined));
  });

  it('finds a NUL character anywhere, in a value or a key, and names where', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        const text = `${before}\u0000${after}`;
        return inputProblem({ list: [{ deep: text }] }, 'the body') === 'list[0].deep must not contain the NUL character (\\u0000)';
      }),
    );
    expect(inputProblem('a\u0000', 'path parameter guid')).toBe('path parameter guid must not contain the NUL character (\\u0000)');
    expect(inputProblem({ 'k\u0000': 1 }, 'the body')).toBe('a field name in the body contains the NUL character (\\u0000)');
  });

  it('refuses a lone surrogate (validators throw on it) and passes every well-formed text', () => {
    expect(inputProblem({ email: '\ud800' }, 'the body')).toBe('email is not valid Unicode text (a lone surrogate)');
    expect(inputProblem(['a\udc00b'], 'the body')).toBe('[0] is not valid Unicode text (a lone surrogate)');
    expect(inputProblem({ text: 'smile \ud83d\ude00' }, 'the body')).toBeUndefined();
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => inputProblem({ text }, 'the body') === undefined));
  });

  it('refuses nesting past the bound without overflowing its own stack', () => {
    expect(inputProblem(nestedObject(MAX_INPUT_DEPTH), 'the body')).toBeUndefined();
    expect(inputProblem(nestedObject(MAX_INPUT_DEPTH + 1), 'the body')).toBe(`the body nests deeper than ${MAX_INPUT_DEPTH} levels`);
    expect(inputProblem(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)), 'the body')).toMatch(/nests deeper/);
  });

  it('refuses any list longer than the ceiling, wherever it is', () => {
    expect(inputProblem({ list: new Array(MAX_INPUT_ARRAY).fill(1) }, 'the body')).toBeUndefined();
    expect(inputProblem({ a: { list: new Array(MAX_INPUT_ARRAY + 1).fill(1) } }, 'the body')).toBe(
      `a.list may hold at most ${MAX_INPUT_ARRAY} items`,
    );
    expect(inputProblem(new Array(MAX_INPUT_ARRAY + 1).fill(1), 'the body')).toBe(`the body may hold at most ${MAX_INPUT_ARRAY} items`);
  });
});

describe('Optional', () => {
  class Dto {
    @Optional()
    name?: string;
  }
  const errors = (value: object) => validateSync(Object.assign(new Dto(), value)).flatMap((e) => Object.values(e.constraints ?? {}));

  it('lets a field be left out but never be null', () => {
    expect(errors({})).toEqual([]);
    expect(errors({ name: 'Ada' })).toEqual([]);
    expect(errors({ name: null })).toEqual(['name must not be null: leave it out instead']);
  });
});
