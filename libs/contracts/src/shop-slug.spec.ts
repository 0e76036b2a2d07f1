import { describe, expect, it } from '@jest/globals';
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import fc from 'fast-check';
import { ServiceDto } from './commerce.js';
import { RESERVED_SHOP_SLUGS, SHOP_SLUG_MAX, SHOP_SLUG_PATTERN, shopSlugProblem, suggestShopSlug } from './shop-slug.js';

describe('shopSlugProblem', () => {
  it('accepts lowercase words of a–z and 0–9 joined by single hyphens, 3 to 40 characters', () => {
    for (const slug of ['abc', 'riso-corner', 'print-shop-2', '3d-prints', 'a'.repeat(40), 'a-b'])
      expect(shopSlugProblem(slug)).toBeUndefined();
  });

  it('refuses the wrong length, uppercase, stray hyphens and other characters, each in plain words', () => {
    expect(shopSlugProblem('ab')).toBe('a shop link needs 3 to 40 characters');
    expect(shopSlugProblem('a'.repeat(41))).toBe('a shop link needs 3 to 40 characters');
    expect(shopSlugProblem('Riso')).toBe('a shop link uses lowercase letters only');
    expect(shopSlugProblem('-riso')).toBe('a shop link cannot start or end with a hyphen');
    expect(shopSlugProblem('riso-')).toBe('a shop link cannot start or end with a hyphen');
    expect(shopSlugProblem('riso--corner')).toBe('a shop link cannot have two hyphens in a row');
    for (const slug of ['riso corner', 'riso_corner', 'café', 'riso.corner', 'riso/x', 'ri%20so'])
      expect(shopSlugProblem(slug)).toBe('a shop link may hold only letters a–z, digits 0–9 and hyphens');
  });

  it("refuses every reserved word, and the site's own paths among them", () => {
    for (const word of [
      'admin',
      'api',
      'v1',
      'shop',
      'account',
      'billing',
      'login',
      'signin',
      'signup',
      'help',
      'pricing',
      'tools',
      'www',
      'support',
      'tinkerdesk',
      'static',
      'assets',
    ])
      expect(RESERVED_SHOP_SLUGS.has(word)).toBe(true);
    expect(shopSlugProblem('admin')).toBe('“admin” is reserved: choose another shop link');
    expect(shopSlugProblem('tinkerdesk')).toBe('“tinkerdesk” is reserved: choose another shop link');
    // Reserved words too short to be slugs are refused for their length first.
    expect(shopSlugProblem('s')).toBe('a shop link needs 3 to 40 characters');
  });

  it('agrees with the pattern for any text: no problem exactly when it matches, fits and is not reserved', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab-z09A_ '.split('')), maxLength: 45 }), (slug) => {
        const valid = SHOP_SLUG_PATTERN.test(slug) && slug.length >= 3 && slug.length <= SHOP_SLUG_MAX && !RESERVED_SHOP_SLUGS.has(slug);
        return (shopSlugProblem(slug) === undefined) === valid;
      }),
    );
  });
});

describe('suggestShopSlug', () => {
  it("makes a slug of a service's name: lowercase, accents dropped, other characters one hyphen", () => {
    expect(suggestShopSlug('Riso Corner')).toBe('riso-corner');
    expect(suggestShopSlug('  Café & Crème — Prints!! ')).toBe('cafe-creme-prints');
    expect(suggestShopSlug("Anna's 3D Prints")).toBe('anna-s-3d-prints');
  });

  it('cuts long names on a word boundary, and pads short or reserved ones to a valid slug', () => {
    const long = suggestShopSlug('The very long name of a shop that sells all sorts of printed things');
    expect(long).toBe('the-very-long-name-of-a-shop-that-sells');
    expect(suggestShopSlug('AB')).toBe('ab-shop');
    expect(suggestShopSlug('Support')).toBe('support-shop');
    expect(suggestShopSlug('!!!')).toBe('');
  });

  it('suggests only valid slugs, or nothing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (name) => {
        const slug = suggestShopSlug(name);
        return slug === '' || shopSlugProblem(slug) === undefined;
      }),
    );
  });
});

describe('ServiceDto.slug', () => {
  const base = { name: 'Print shop', displayName: 'Print shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_x' };
  const problems = (slug: unknown) =>
    validateSync(plainToInstance(ServiceDto, { ...base, slug })).flatMap((e) => Object.values(e.constraints ?? {}));

  it('is optional and may be null (removes it); a valid one passes', () => {
    expect(problems(undefined)).toEqual([]);
    expect(problems(null)).toEqual([]);
    expect(problems('print-shop')).toEqual([]);
  });

  it('says what is wrong with a bad one', () => {
    expect(problems('Print Shop')).toEqual(['slug: a shop link uses lowercase letters only']);
    expect(problems('api')).toEqual(['slug: “api” is reserved: choose another shop link']);
    expect(problems(42)).toEqual(['slug: a shop link is text']);
  });
});
