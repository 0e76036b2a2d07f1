import { describe, expect, it } from '@jest/globals';
import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import * as contracts from '@tinkerdesk/contracts';
import { getMetadataStorage } from 'class-validator';
import fc from 'fast-check';
import { flatDto } from './flat-dto.js';
import { InputPipe } from './input-pipe.js';
import { rpcValidationPipe } from './rpc-server.js';

type Class = new () => object;

/** The DTOs of paths and queries (the gateway's @Param() and @Query() objects), and a message DTO it reads a query with. */
const DTOS = Object.entries(contracts).filter(
  (e): e is [string, Class] => typeof e[1] === 'function' && (/(Params?|Query)Dto$/.test(e[0]) || e[0] === 'PublicProfileMessage'),
);
/** Every message DTO of the services (the @Payload() of their handlers). */
const MESSAGES = Object.entries(contracts).filter((e): e is [string, Class] => typeof e[1] === 'function' && /Message$/.test(e[0]));
/** The messages of the busy reads: the property below must see the quick way taken for each. */
const BUSY_MESSAGES = new Set(['ListProductsMessage', 'GetProductMessage', 'StorefrontMessage', 'ListOrdersMessage']);

/** The gateway's pipe (apps/gateway/src/http/validation.ts, its options): unknown fields refused. */
function strictPipe(quick: boolean): InputPipe {
  const validation = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, transform: true });
  return new InputPipe(validation, (type) => quick && (type === 'param' || type === 'query'));
}

function rulesOf(dto: Class) {
  return getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false, undefined);
}

/** Values that pass some rule of the DTO: its lists' items and strings its patterns match. */
function goodValues(dto: Class): Array<fc.Arbitrary<string>> {
  const rules = rulesOf(dto).map((m) => m.constraints?.[0] as unknown);
  const listed = rules.flatMap((c) => (Array.isArray(c) ? c : [])).filter((v): v is string => typeof v === 'string');
  const patterns = rules.filter((c): c is RegExp => c instanceof RegExp);
  return [...(listed.length > 0 ? [fc.constantFrom(...listed)] : []), ...patterns.flatMap(matching)];
}

/** Strings a pattern matches, when fast-check can build them (it cannot for a lookahead: then none). */
function matching(pattern: RegExp): Array<fc.Arbitrary<string>> {
  try {
    return [fc.stringMatching(pattern)];
  } catch {
    return [];
  }
}

/** The field values a request may carry: good ones for the DTO's rules and every kind of bad one. */
function values(dto: Class): fc.Arbitrary<unknown> {
  const listed = rulesOf(dto)
    .flatMap((m) => (Array.isArray(m.constraints?.[0]) ? (m.constraints[0] as unknown[]) : []))
    .filter((v): v is string => typeof v === 'string');
  return fc.oneof(
    ...goodValues(dto),
    fc.uuid({ version: 4 }),
    fc.uuid(),
    fc.constantFrom(
      ...listed,
      'digital',
      'true',
      'false',
      '1',
      '0',
      '-1',
      '20',
      '100',
      '1e3',
      '2.0',
      ' 7 ',
      '0x10',
      '1_000',
      '',
      ' ',
      'abc',
      '2026-11-26',
      'a'.repeat(300),
    ),
    fc.string({ maxLength: 40 }),
    fc.constantFrom('a\u0000b', '\ud800', 'x\udc00', '5c0a2a8e-8b1e-4a4e-9d2f-3c1b2a4e5f60\u0000'),
    fc.array(fc.uuid({ version: 4 }), { maxLength: 2 }),
    fc.constantFrom(1, true, false, null, undefined, {}),
    fc.integer({ min: -2, max: 1_000_001 }),
    fc.constantFrom(0, 20, 100, 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53),
  );
}

/**
 * Values that may pass a field's own rules: its list's items, strings its patterns match, a UUID, and
 * numbers as a query spells them and as a message carries them (a whole number's field).
 */
function goodFor(dto: Class, field: string): Array<fc.Arbitrary<unknown>> {
  const rules = rulesOf(dto).filter((m) => m.propertyName === field);
  const constraints = rules.map((m) => m.constraints?.[0] as unknown);
  const listed = constraints.flatMap((c) => (Array.isArray(c) ? c : [])).filter((v): v is string => typeof v === 'string');
  const good: Array<fc.Arbitrary<unknown>> = [
    ...(listed.length > 0 ? [fc.constantFrom(...listed)] : []),
    ...constraints.filter((c): c is RegExp => c instanceof RegExp).flatMap(matching),
  ];
  if (rules.some((m) => m.name === 'isInt')) good.push(fc.constantFrom<unknown>('20', '1', '0', 20, 1, 0));
  if (good.length === 0 || rules.some((m) => m.name === 'isUuid')) good.push(fc.uuid({ version: 4 }));
  return good;
}

function inputs(dto: Class): fc.Arbitrary<Record<string, unknown>> {
  const fields = [...new Set(rulesOf(dto).map((m) => m.propertyName))];
  const keys = fc.constantFrom(...fields, ...fields, ...fields, 'extra', '__proto__', 'constructor', 'toString', 'a\u0000');
  // Every field once, mostly with a value that may pass (the many-field DTOs are rarely all good by chance).
  const likely = (field: string) =>
    fc.oneof({ arbitrary: fc.oneof(...goodFor(dto, field)), weight: 4 }, { arbitrary: values(dto), weight: 1 });
  const whole = fc
    .tuple(...fields.map((f) => fc.option(fc.tuple(fc.constant(f), likely(f)), { freq: 8 })))
    .map((all) => all.filter((e) => e !== null));
  return fc.tuple(fc.oneof(fc.array(fc.tuple(keys, values(dto)), { maxLength: 5 }), whole), fc.boolean()).map(([entries, bare]) => {
    // Express's query objects have no prototype; path parameters are ordinary objects.
    const object: Record<string, unknown> = bare ? (Object.create(null) as Record<string, unknown>) : {};
    for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
    return object;
  });
}

function copy(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.getPrototypeOf(value) === null ? (Object.create(null) as Record<string, unknown>) : {};
  for (const key of Object.keys(value)) {
    const v = value[key];
    Object.defineProperty(out, key, {
      value: Array.isArray(v) ? [...(v as unknown[])] : v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

async function outcome(run: () => unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: error instanceof contracts.AppError ? { code: error.code, message: error.message } : error };
  }
}

/**
 * Whatever the quick way accepts, the whole pipe accepts with the same instance, and the pipe with the
 * quick way answers every input as the pipe without it (the same value, or the same error).
 */
async function sameAnswers(dto: Class, types: Array<ArgumentMetadata['type']>, pipe: InputPipe, full: InputPipe, numRuns: number) {
  const quick = flatDto(dto);
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(inputs(dto), fc.constantFrom(...types), async (input, type) => {
      const metadata: ArgumentMetadata = { type, metatype: dto, data: undefined };
      const entity = quick?.accept(copy(input));
      const expected = await outcome(() => full.transform(copy(input), metadata));
      const actual = await outcome(() => pipe.transform(copy(input), metadata));
      expect(actual).toEqual(expected);
      if (entity === undefined) return;
      accepted++;
      expect(expected.ok).toBe(true);
      if (!expected.ok || !actual.ok) return;
      expect(Object.getPrototypeOf(entity)).toBe(dto.prototype);
      expect(Object.getPrototypeOf(actual.value)).toBe(dto.prototype);
      expect(Object.keys(entity)).toEqual(Object.keys(expected.value as object));
      expect(entity).toStrictEqual(expected.value);
      expect(actual.value).toStrictEqual(expected.value);
    }),
    { numRuns },
  );
  return { quick, accepted };
}

// Nest hands a message's payload to the pipes with its RPC parameter type, a number (RpcParamtype.PAYLOAD,
// 3; the enum is not exported by @nestjs/microservices), never 'custom'.
const PAYLOAD = 3 as unknown as ArgumentMetadata['type'];

describe('flatDto', () => {
  it('covers the path and query DTOs of the busy reads and their messages', () => {
    for (const dto of [
      contracts.ProductsParamsDto,
      contracts.ProductsQueryDto,
      contracts.ProductParamsDto,
      contracts.OrderIdParamsDto,
      contracts.ServiceIdParamsDto,
      contracts.ListProductsMessage,
      contracts.GetProductMessage,
      contracts.StorefrontMessage,
    ]) {
      expect(flatDto(dto)).toBeDefined();
    }
    // Numbers read from a query are converted by class-transformer (`@Type(() => Number)`): so are they here.
    expect(flatDto(contracts.ListQueryDto)).toBeDefined();
    expect(flatDto(contracts.ListQueryDto)?.accept({ limit: '20', offset: 5 })).toStrictEqual(
      Object.assign(new contracts.ListQueryDto(), { limit: 20, offset: 5 }),
    );
    expect(flatDto(contracts.OrdersQueryDto)).toBeDefined();
    expect(flatDto(contracts.ListOrdersMessage)).toBeDefined();
    expect(flatDto(String)).toBeUndefined();
    expect(DTOS.length).toBeGreaterThan(30);
    expect(MESSAGES.length).toBeGreaterThan(60);
  });

  describe("the gateway's paths and queries (unknown fields refused)", () => {
    const pipe = strictPipe(true);
    const full = strictPipe(false);

    it.each(DTOS)(
      '%s: whatever it accepts, the full pipe accepts, with the same instance; the pipe answers as before',
      async (_name, dto) => {
        const { quick, accepted } = await sameAnswers(dto, ['param', 'query'], pipe, full, 300);
        // A DTO with the quick way must have taken it for some of the inputs (else the test above proved nothing of it).
        if (quick) expect(accepted).toBeGreaterThan(0);
      },
    );
  });

  describe("the services' messages (unknown fields stripped)", () => {
    const pipe = rpcValidationPipe();
    const full = rpcValidationPipe(false);
    let acceptedInAll = 0;

    it.each(MESSAGES)(
      '%s: whatever it accepts, the full pipe accepts, with the same instance; the pipe answers as before',
      async (name, dto) => {
        const { quick, accepted } = await sameAnswers(dto, [PAYLOAD], pipe, full, 150);
        acceptedInAll += accepted;
        if (BUSY_MESSAGES.has(name)) {
          expect(quick).toBeDefined();
          expect(accepted).toBeGreaterThan(0);
        }
      },
    );

    it('took the quick way for many messages', () => {
      expect(acceptedInAll).toBeGreaterThan(100);
    });

    it('answers a message with an unknown field by the whole way: stripped, as before', async () => {
      const id = '5c0a2a8e-8b1e-4a4e-9d2f-3c1b2a4e5f60';
      const metadata: ArgumentMetadata = { type: PAYLOAD, metatype: contracts.StorefrontMessage, data: undefined };
      const value = await pipe.transform({ userId: id, serviceId: id, extra: 1 }, metadata);
      expect(value).toBeInstanceOf(contracts.StorefrontMessage);
      expect(value).toEqual({ userId: id, serviceId: id });
    });
  });

  it('takes the quick way only for a plain object of strings, numbers and booleans', () => {
    const dto = flatDto(contracts.ProductsParamsDto);
    const id = '5c0a2a8e-8b1e-4a4e-9d2f-3c1b2a4e5f60';
    expect(dto?.accept({ id, sid: id })).toBeInstanceOf(contracts.ProductsParamsDto);
    expect(dto?.accept({ id, sid: id.toUpperCase() })).toBeInstanceOf(contracts.ProductsParamsDto);
    expect(dto?.accept({ id, sid: 'x' })).toBeUndefined();
    expect(dto?.accept({ id })).toBeUndefined();
    expect(dto?.accept({ id, sid: id, extra: '1' })).toBeUndefined();
    expect(dto?.accept({ id, sid: [id] })).toBeUndefined();
    expect(dto?.accept({ id, sid: null })).toBeUndefined();
    expect(dto?.accept({ id, sid: 1 })).toBeUndefined();
    expect(dto?.accept(new (class Input {})())).toBeUndefined();
    expect(dto?.accept(null)).toBeUndefined();
  });
});
