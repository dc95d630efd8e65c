// The import's handler: a few lines, the story is in target-import.ts.
import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import { uploadedPictures } from './pictures.ts'
import { importTargets } from './target-import.ts'
import type { ImportDeps } from './target-import.ts'

export function targetImportHandlers(deps: ImportDeps): Handlers {
  return defineHandlers('practice', {
    importPracticeTargets: async ({ body, request }) => {
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
  })
}
