import DownloadIcon from '@mui/icons-material/Download'
import { Box, Button, Card, CardContent, Link, Stack, Typography } from '@mui/material'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { useAuth } from '../../../components/auth/index.ts'
import { paths } from '../../../config/paths.ts'
import { exportLanguages } from '../languages.ts'
import { useLanguageName } from '../use-language-name.ts'
import { useCsvExport, useOwnWordCounts } from '../use-descriptor-actions.ts'

/** Export card of the trainer: one CSV button per language, or the way to sign in. */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const

export function ExportCard({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation('descriptors')
  const languageName = useLanguageName()
  const titleId = useId()
  const { exportCsv, exporting } = useCsvExport()
  const { openSignIn } = useAuth()
  const wordsIn = useOwnWordCounts(signedIn)
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId} sx={{ height: '100%' }}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2" gutterBottom>
          {t('exportCard.title')}
        </Typography>
        {signedIn ? (
          <>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('exportCard.intro')}
            </Typography>
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 2 }}>
              {exportLanguages.map((language) => (
                <Button
                  key={language.code}
                  size="small"
                  variant="outlined"
                  startIcon={<DownloadIcon />}
                  loading={exporting === language.code}
                  disabled={
                    wordsIn(language.code) === 0 ||
                    (exporting !== null && exporting !== language.code)
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
        ) : (
          <>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('exportCard.signedOut')}
            </Typography>
            <Button variant="contained" onClick={openSignIn}>
              {t('exportCard.goToSignIn')}
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  )
}
