// The import's handler: a few lines, the story is in target-import.ts.
import type { FastifyRequest } from 'fastify'
import type { components } from '@crv/contracts'
import type { Handlers } from '@crv/kit'
import { uploadedPictures } from './pictures.ts'
import { importTargets } from './target-import.ts'
import type { ImportDeps } from './target-import.ts'

type Schemas = components['schemas']

export function targetImportHandlers(deps: ImportDeps): Handlers {
  return {
    importPracticeTargets: async (request: FastifyRequest) => {
      const body = request.body as Schemas['PracticeImportRequest']
      const report = await importTargets(
        { ...deps, log: request.log },
        {
          poolId: body.poolId,
          dryRun: body.dryRun,
          manifest: body.manifest,
          pictures: uploadedPictures(body.files ?? []),
        },
      )
      request.log.info(
        {
          poolId: report.poolId,
          dryRun: report.dryRun,
          rows: report.rows.length,
          added: report.added,
          refused: report.refused,
        },
        'practice targets import',
      )
      return report
    },
  }
}
