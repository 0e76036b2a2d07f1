import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { Optional } from './input.js';

/** Request headers to send with a fetch: an object of string values (names and values are checked again when sent). */
export function IsHeaderMap(): PropertyDecorator {
  return ValidateBy({
    name: 'isHeaderMap',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value as Record<string, unknown>).every((v) => typeof v === 'string'),
      defaultMessage: () => 'headers must be an object whose values are strings, such as {"Authorization": "Bearer ..."}',
    },
  });
}

/** A URL the server fetches: a string of 1 to 2048 characters (safeFetch checks the rest when it fetches). */
export function FetchUrl(example: string): PropertyDecorator {
  return (target, key) => {
    for (const decorate of [
      ApiProperty({ example, maxLength: 2048, description: 'An http or https URL outside this network' }),
      IsString(),
      MinLength(1, { message: 'url is required' }),
      MaxLength(2048, { message: 'url must be at most 2048 characters long' }),
    ]) {
      decorate(target, key);
    }
  };
}

/** Request headers a fetch sends: optional, an object of strings. */
export function FetchHeaders(): PropertyDecorator {
  return (target, key) => {
    for (const decorate of [
      ApiPropertyOptional({
        type: 'object',
        additionalProperties: { type: 'string' },
        example: { Authorization: 'Bearer ...' },
        description: 'Request headers to send (at most 30; Host, Connection, Accept-Encoding and other hop-by-hop headers are ignored)',
      }),
      Optional(),
      IsHeaderMap(),
    ]) {
      decorate(target, key);
    }
  };
}

/** HTTP: POST /v1/users/{guid}/fetch {url, headers} (docs/api.md#fetching-urls-on-the-server-ssrf-guard) */
export class FetchUrlDto {
  @FetchUrl('https://example.com/data.json')
  url!: string;

  @FetchHeaders()
  headers?: Record<string, string>;
}
