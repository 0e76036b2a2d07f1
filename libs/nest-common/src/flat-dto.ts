import { createRequire } from 'node:module';
import { getMetadataStorage, ValidationTypes, type ValidationArguments } from 'class-validator';

/**
 * A quick way through the validation of a DTO for the input that passes it, with the same result as
 * class-transformer's `plainToInstance` and class-validator's `validate` as a ValidationPipe with
 * `whitelist` and `transform` runs them (the gateway's, which also forbids unknown fields, and the
 * services', which strips them: input with a field the class has no rule for takes the whole pipe in
 * both, so either answers the same).
 *
 * Only for the classes it can answer for exactly (`flatDto`): rules that are class-validator's own or
 * custom ones, synchronous, not `each`, conditions (`ValidateIf`, the contracts' `Optional`), and no
 * class-transformer decorator but `@Type(() => Number)` (a query's numbers: converted with `Number`, as
 * plainToInstance converts them). And only for input it can answer for: a plain object whose every
 * field is a string, a number or a boolean (what plainToInstance copies as it is) and a property of the
 * class, with no NUL character and no lone surrogate (the input checks of InputPipe). The rules are run
 * as class-validator runs them (the same validator instances and arguments); when every rule passes, the
 * instance is the one `plainToInstance` builds. Anything else (any rule failing, any other input)
 * answers undefined, and the caller runs the whole pipe, which builds the error with its own words.
 * InputPipe takes this way for the kinds of input it is told to (the gateway's paths and queries, every
 * message of a service).
 */
export interface FlatDto {
  /** The DTO instance for `value`, or undefined when the full pipe must decide. */
  accept(value: unknown): object | undefined;
}

type Metadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];
type Constraint = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidatorConstraints']>[number];
type Class = abstract new (...args: never[]) => object;

/** The part of class-transformer's metadata storage read here (its package exports no types for it). */
interface TransformerStorage {
  findTransformMetadatas(target: Class, property: string, transformationType: number): unknown[];
  findExcludeMetadata(target: Class, property: string): unknown;
  findExposeMetadata(target: Class, property: string): unknown;
  findTypeMetadata(target: Class, property: string): TypeMetadata | undefined;
  getStrategy(target: Class): string;
  getExposedMetadatas(target: Class): unknown[];
  getExcludedMetadatas(target: Class): unknown[];
}

/** A `@Type` decorator's record (class-transformer's TypeMetadata). */
interface TypeMetadata {
  typeFunction?: (options?: unknown) => unknown;
  reflectedType?: unknown;
  options?: { discriminator?: unknown; keepDiscriminatorProperty?: unknown };
}

/** `@Type(() => Number)` and nothing more: plainToInstance turns any value but null and undefined into `Number(value)`. */
function isNumberType(type: TypeMetadata): boolean {
  if (type.options?.discriminator !== undefined || type.reflectedType === Map || typeof type.typeFunction !== 'function') return false;
  return type.typeFunction() === Number;
}

// The storage class-transformer's decorators fill (the same module the ValidationPipe's plainToInstance reads).
const transformerStorage = (
  createRequire(import.meta.url)('class-transformer/cjs/storage.js') as { defaultMetadataStorage: TransformerStorage }
).defaultMetadataStorage;
const PLAIN_TO_CLASS = 0;

const NUL = '\u0000';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Classes Nest's ValidationPipe does not validate (their values are only converted, if at all). */
const NOT_VALIDATED = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date]);

interface Rule {
  metadata: Metadata;
  constraints: Constraint[];
}

interface PropertyRules {
  name: string;
  conditions: Metadata[];
  defined: Rule[];
  custom: Rule[];
}

interface Compiled {
  /** class-validator's rules of the class, as it answered when this was made (a new answer means new rules). */
  metadatas: Metadata[];
  flat: FlatDto | undefined;
}

const compiled = new WeakMap<Class, Compiled>();

/** The quick way for a DTO class, or undefined when its rules or decorators are not all of the kinds above. */
export function flatDto(metatype: unknown): FlatDto | undefined {
  if (typeof metatype !== 'function' || NOT_VALIDATED.has(metatype)) return undefined;
  const target = metatype as Class;
  const storage = getMetadataStorage();
  // The arguments class-validator's executor passes for the ValidationPipe's options (no groups, not always).
  const metadatas = storage.getTargetValidationMetadatas(target, '', false, false, undefined);
  const known = compiled.get(target);
  if (known && known.metadatas === metadatas) return known.flat;
  const flat = compile(target, metadatas);
  compiled.set(target, { metadatas, flat });
  return flat;
}

function compile(target: Class, metadatas: Metadata[]): FlatDto | undefined {
  // forbidUnknownValues: a class without rules is refused by the pipe.
  if (metadatas.length === 0) return undefined;
  const storage = getMetadataStorage();
  const grouped = storage.groupByPropertyName(metadatas);
  const properties: PropertyRules[] = [];
  for (const [name, list] of Object.entries(grouped)) {
    // A field whose only rule is a whitelisting one is allowed but not validated.
    const rules: PropertyRules = { name, conditions: [], defined: [], custom: [] };
    for (const metadata of list) {
      if (metadata.each) return undefined;
      if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) rules.conditions.push(metadata);
      else if (metadata.type === ValidationTypes.IS_DEFINED || metadata.type === ValidationTypes.CUSTOM_VALIDATION) {
        const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
        if (constraints.some((c) => c.async)) return undefined;
        (metadata.type === ValidationTypes.IS_DEFINED ? rules.defined : rules.custom).push({ metadata, constraints });
      } else if (metadata.type !== ValidationTypes.WHITELIST) return undefined;
    }
    if (list.length === 0) return undefined;
    properties.push(rules);
  }
  const allowed = new Set(properties.map((p) => p.name));
  // class-transformer: no decorator of its own on the class or its parents, so plainToInstance copies each field as it is.
  if (transformerStorage.getStrategy(target) !== 'none') return undefined;
  if (transformerStorage.getExposedMetadatas(target).length > 0 || transformerStorage.getExcludedMetadatas(target).length > 0)
    return undefined;
  // Fields whose one class-transformer decorator is `@Type(() => Number)`: plainToInstance answers `Number(value)`.
  const numeric = new Set<string>();
  for (const name of allowed) {
    const type = transformerStorage.findTypeMetadata(target, name);
    if (type) {
      if (!isNumberType(type)) return undefined;
      numeric.add(name);
    }
    if (transformerStorage.findExposeMetadata(target, name)) return undefined;
    if (transformerStorage.findExcludeMetadata(target, name)) return undefined;
    if (transformerStorage.findTransformMetadatas(target, name, PLAIN_TO_CLASS).length > 0) return undefined;
    // plainToInstance skips a field the prototype has (a getter, a method): not copied as it is.
    if (name in target.prototype || name === '__proto__' || name === 'constructor') return undefined;
  }
  const Target = target as unknown as new () => Record<string, unknown>;
  // A field the constructor fills with a function is skipped by plainToInstance too.
  const blank = new Target();
  if (Object.values(blank).some((v) => typeof v === 'function')) return undefined;

  return {
    accept(value: unknown): object | undefined {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return undefined;
      const input = value as Record<string, unknown>;
      const keys = Object.keys(input);
      for (const key of keys) {
        const field = input[key];
        if (!allowed.has(key) || key.includes(NUL)) return undefined;
        if (typeof field === 'string') {
          if (field.includes(NUL) || LONE_SURROGATE.test(field)) return undefined;
        } else if (typeof field !== 'number' && typeof field !== 'boolean') return undefined;
      }
      const entity = new Target();
      for (const key of keys) entity[key] = numeric.has(key) ? Number(input[key]) : input[key];
      // whitelist + forbidNonWhitelisted: every field of the instance (the constructor's too) has rules.
      for (const key of Object.keys(entity)) if (!allowed.has(key)) return undefined;
      for (const property of properties) if (!passes(entity, property)) return undefined;
      return entity;
    },
  };
}

/** class-validator's performValidations for one property, answering only whether every rule passed. */
function passes(entity: Record<string, unknown>, property: PropertyRules): boolean {
  const value = entity[property.name];
  let validate = true;
  for (const condition of property.conditions) {
    const test = condition.constraints[0] as (object: object, value: unknown) => boolean;
    validate = test(entity, value) && validate;
  }
  if (!validate) return true;
  return rulesPass(entity, value, property.defined) && rulesPass(entity, value, property.custom);
}

function rulesPass(entity: Record<string, unknown>, value: unknown, rules: Rule[]): boolean {
  for (const { metadata, constraints } of rules) {
    if (metadata.validateIf && !metadata.validateIf(entity, value)) continue;
    for (const constraint of constraints) {
      const args: ValidationArguments = {
        targetName: entity.constructor.name,
        property: metadata.propertyName,
        object: entity,
        value,
        constraints: metadata.constraints,
      };
      const valid: unknown = constraint.instance.validate(value, args);
      // A promise (an asynchronous rule after all) or a failure: the whole pipe decides and words it.
      if (!valid || valid instanceof Promise || typeof (valid as { then?: unknown }).then === 'function') return false;
    }
  }
  return true;
}
