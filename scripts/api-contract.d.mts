// Types of scripts/api-contract.mjs for the TypeScript tests.
export interface ContractFiles {
  responseSchemas: string;
  openapi: string;
  clientTypes: string;
}
export const ROOT: string;
export const RESPONSE_SCHEMAS_FILE: string;
export const OPENAPI_FILE: string;
export const CLIENT_TYPES_FILE: string;
export const DOCUMENT_PUBLIC_URL: string;
export function responseSchemas(): Promise<Record<string, object>>;
export function responseSchemasModule(schemas: Record<string, object>): string;
export function documentText(document: unknown): string;
export function clientTypes(document: unknown): Promise<string>;
export function committedFiles(): ContractFiles;
export function findDrift(committed: ContractFiles, served: unknown): Promise<string[]>;
