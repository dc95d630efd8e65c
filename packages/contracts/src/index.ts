import { readFileSync } from 'node:fs'

export type { paths, components, operations } from '../generated/schema.ts'
export { operationMeta } from '../generated/operations.ts'

/** The bundled contract (generated from openapi/ by `npm run generate`). */
export const contractFile = new URL('../generated/openapi.json', import.meta.url)

export interface OpenApiParameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  schema?: JsonSchema
  description?: string
}

export interface OpenApiMediaType {
  schema?: JsonSchema
}

export interface OpenApiResponse {
  description?: string
  content?: Record<string, OpenApiMediaType>
  $ref?: string
}

export interface OpenApiOperation {
  operationId: string
  tags?: string[]
  summary?: string
  parameters?: (OpenApiParameter | { $ref: string })[]
  requestBody?: { required?: boolean; content: Record<string, OpenApiMediaType> }
  responses: Record<string, OpenApiResponse>
  security?: Record<string, string[]>[]
  'x-access'?: 'public' | 'user' | 'admin'
  'x-body-limit'?: number
}

export type JsonSchema = { [key: string]: unknown }

export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string }
  paths: Record<string, Record<string, OpenApiOperation | OpenApiParameter[] | unknown>>
  components: {
    schemas: Record<string, JsonSchema>
    responses?: Record<string, OpenApiResponse>
    parameters?: Record<string, OpenApiParameter>
  }
}

let cached: OpenApiDocument | undefined

export function loadContract(): OpenApiDocument {
  cached ??= JSON.parse(readFileSync(contractFile, 'utf8')) as OpenApiDocument
  return cached
}
