// The core every process loads. Heavier parts are separate entry points, loaded only by the
// services that use them: `@crv/kit/db` (PostgreSQL, Drizzle) and `@crv/kit/storage` (S3).
export * from './config.ts'
export * from './errors.ts'
export * from './logger.ts'
export * from './auth.ts'
export * from './contract.ts'
export * from './handlers.ts'
export * from './redis.ts'
export * from './service.ts'
export * from './csv.ts'
export * from './encoding.ts'
export * from './client-key.ts'
