import DownloadIcon from '@mui/icons-material/Download'
import InfoIcon from '@mui/icons-material/InfoOutlined'
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Typography,
} from '@mui/material'
import { Flag } from '../../components/flag.tsx'
import { SignedInOnly, SignInRequired } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useTranslation } from 'react-i18next'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { exportLanguages } from './languages.ts'
import { useLanguageName } from './use-language-name.ts'
import { useCsvExport, useOwnWordCounts } from './use-descriptor-actions.ts'

function ExportData() {
  const { t } = useTranslation('descriptors')
  const languageName = useLanguageName()
  const { exportCsv, exporting } = useCsvExport()
  // How many words each file would hold; a language without any has nothing to download.
  const wordsIn = useOwnWordCounts()
  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('exportPage.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('exportPage.intro')}
      </Typography>
      <Box
        component="ul"
        aria-label={t('exportPage.languagesLabel')}
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
          listStyle: 'none',
          p: 0,
          m: 0,
        }}
      >
        {exportLanguages.map((language) => {
          const { name, lang } = languageName(language)
          return (
            <Card key={language.code} component="li" variant="outlined">
              <CardContent sx={{ pb: 1 }}>
                <Typography variant="h6" component="h2" lang={lang}>
                  <Flag code={language.code} /> {name}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {wordsIn(language.code) === undefined
                    ? t('exportPage.counting')
                    : wordsIn(language.code) === 0
                      ? t('exportPage.noWords')
                      : t('exportPage.words', { count: wordsIn(language.code) ?? 0 })}
                </Typography>
              </CardContent>
              <CardActions sx={{ px: 2, pb: 2 }}>
                <Button
                  variant="contained"
                  startIcon={<DownloadIcon />}
                  loading={exporting === language.code}
                  disabled={
                    wordsIn(language.code) === 0 ||
                    (exporting !== null && exporting !== language.code)
                  }
                  onClick={() => void exportCsv(language.code)}
                  aria-label={t('exportPage.exportCsvIn', { language: name })}
                >
                  {t('exportPage.exportCsv')}
                </Button>
              </CardActions>
            </Card>
          )
        })}
      </Box>
      <Alert severity="info" icon={<InfoIcon />} sx={{ mt: 3 }}>
        <AlertTitle>{t('exportPage.aboutTitle')}</AlertTitle>
        {t('exportPage.about')}
      </Alert>
    </PageContainer>
  )
}

export function ExportDataPage() {
  usePageMeta('exportData')
  const { t } = useTranslation('descriptors')
  return (
    <SignedInOnly
      fallback={
        <SignInRequired
          title={t('exportPage.signInTitle')}
          message={t('exportPage.signInMessage')}
        />
      }
    >
      <ExportData />
    </SignedInOnly>
  )
}
