import DownloadIcon from '@mui/icons-material/Download'
import { Box, Button, Link, Stack } from '@mui/material'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../../../config/paths.ts'
import { exportLanguages } from '../languages.ts'
import { useLanguageName } from '../use-language-name.ts'
import { useCsvExport, useOwnWordCounts } from '../use-descriptor-actions.ts'

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const

/**
 * The export card's tools for a signed-in user: one CSV button per language, with how many of
 * their own words it holds, and the way to the advanced export.
 */
export function ExportButtons() {
  const { t } = useTranslation('descriptors')
  const languageName = useLanguageName()
  const { exportCsv, exporting } = useCsvExport()
  const wordsIn = useOwnWordCounts(true)
  return (
    <>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 2 }}>
        {exportLanguages.map((language) => (
          <Button
            key={language.code}
            size="small"
            variant="outlined"
            startIcon={<DownloadIcon />}
            loading={exporting === language.code}
            disabled={
              wordsIn(language.code) === 0 || (exporting !== null && exporting !== language.code)
            }
            onClick={() => void exportCsv(language.code)}
            lang={languageName(language).lang}
          >
            {languageName(language).name}
            {wordsIn(language.code) === undefined ? null : (
              <>
                {' '}
                <Box component="span" sx={{ ml: 0.5, opacity: 0.75 }}>
                  {wordsIn(language.code)}
                </Box>
                {/* Heard, not seen: '1 word', '3 words'. */}
                <Box component="span" sx={visuallyHidden}>
                  {` ${t('exportCard.words', { count: wordsIn(language.code) ?? 0 })}`}
                </Box>
              </>
            )}
          </Button>
        ))}
      </Stack>
      <Link
        component={RouterLink}
        to={paths.exportData}
        sx={{
          alignSelf: 'flex-start',
          display: 'inline-flex',
          alignItems: 'center',
          minHeight: 44,
        }}
      >
        {t('exportCard.advanced')}
      </Link>
    </>
  )
}
