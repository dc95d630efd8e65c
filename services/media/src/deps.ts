import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '@crv/kit/db'
import type { ObjectStorage } from '@crv/kit/storage'
import type { MediaConfig } from './config.ts'

/** What the media service's route modules share. */
export interface MediaDeps {
  config: MediaConfig
  db: Database
  storage: ObjectStorage
  log: FastifyBaseLogger
}
