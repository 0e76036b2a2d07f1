import { ValidateBy, ValidateIf } from 'class-validator';

/**
 * Half of a UTF-16 surrogate pair without its other half: not text (JSON may carry it as \ud800);
 * refused where input enters, since validators and databases fail on it (validator's isEmail throws).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** How deep a JSON body, query or message may nest (every DTO of the API is far shallower). */
export const MAX_INPUT_DEPTH = 32;

/**
 * How many items any list in input may hold, whatever its DTO says (every list of the API is far
 * shorter, and each DTO's own ArrayMaxSize is checked before validation too): a list of 100,000 items
 * is refused at once instead of validating each item.
 */
export const MAX_INPUT_ARRAY = 10_000;

function describe(path: string, fallback: string): string {
  return path === '' ? fallback : path;
}

/**
 * What is wrong with raw input before it is validated against its DTO, or undefined when nothing is:
 * nesting deeper than MAX_INPUT_DEPTH (which would overflow the stack of the transformers), the
 * NUL character in any string or key (PostgreSQL refuses it in text: refused where input enters), and
 * lone surrogates in strings.
 * Iterative, so hostile input cannot overflow the stack here either.
 */
export function inputProblem(value: unknown, what: string): string | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const { value: v, depth, path } = item;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return `${describe(path, what)} must not contain the NUL character (\\u0000)`;
      if (LONE_SURROGATE.test(v)) return `${describe(path, what)} is not valid Unicode text (a lone surrogate)`;
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_INPUT_DEPTH) return `${what} nests deeper than ${MAX_INPUT_DEPTH} levels`;
    if (Array.isArray(v)) {
      if (v.length > MAX_INPUT_ARRAY) return `${describe(path, what)} may hold at most ${MAX_INPUT_ARRAY} items`;
      v.forEach((child, i) => stack.push({ value: child, depth: depth + 1, path: `${path}[${i}]` }));
      continue;
    }
    for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
      if (key.includes('\u0000')) return `a field name in ${describe(path, what)} contains the NUL character (\\u0000)`;
      stack.push({ value: child, depth: depth + 1, path: path ? `${path}.${key}` : key });
    }
  }
  return undefined;
}

/**
 * An optional field: it may be left out, but when present it must be a value, never null (use
 * instead of class-validator's IsOptional, which lets null through to the services). With
 * `nullable`, null is accepted too (a field that can be cleared).
 */
export function Optional(options: { nullable?: boolean } = {}): PropertyDecorator {
  if (options.nullable) {
    // null is a value here (it clears the field): only a present, non-null value is checked.
    return ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null);
  }
  const present = ValidateIf((_object: object, value: unknown) => value !== undefined);
  const notNull = ValidateBy({
    name: 'isNotNull',
    validator: {
      validate: (value: unknown) => value !== null,
      defaultMessage: (args) => `${args?.property ?? 'the field'} must not be null: leave it out instead`,
    },
  });
  return (target: object, key: string | symbol) => {
    present(target, key);
    notNull(target, key);
  };
}
