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
import { count } from '../../lib/text/count.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { exportLanguages } from './languages.ts'
import { useCsvExport, useOwnWordCounts } from './use-descriptor-actions.ts'

function ExportData() {
  const { exportCsv, exporting } = useCsvExport()
  // How many words each file would hold; a language without any has nothing to download.
  const wordsIn = useOwnWordCounts()
  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        Export Your Data
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Download the custom descriptors you have created, one CSV file per language.
      </Typography>
      <Box
        component="ul"
        aria-label="Export languages"
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
          listStyle: 'none',
          p: 0,
          m: 0,
        }}
      >
        {exportLanguages.map((language) => (
          <Card key={language.code} component="li" variant="outlined">
            <CardContent sx={{ pb: 1 }}>
              <Typography variant="h6" component="h2" lang={language.code}>
                <Flag code={language.code} /> {language.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {wordsIn(language.code) === undefined
                  ? 'Counting your words…'
                  : wordsIn(language.code) === 0
                    ? 'No words of yours yet'
                    : count(wordsIn(language.code) ?? 0, 'word')}
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
                aria-label={`Export CSV ${language.name}`}
              >
                Export CSV
              </Button>
            </CardActions>
          </Card>
        ))}
      </Box>
      <Alert severity="info" icon={<InfoIcon />} sx={{ mt: 3 }}>
        <AlertTitle>About the files</AlertTitle>
        The files are Excel-compatible, encoded as UTF-8, so accents and other scripts open intact.
        Each has the columns ID, Word, Language, Status, Gestalt Name and Perception Name, separated
        by semicolons.
      </Alert>
    </PageContainer>
  )
}

export function ExportDataPage() {
  usePageMeta('exportData')
  return (
    <SignedInOnly
      fallback={
        <SignInRequired
          title="Sign In Required"
          message="Please sign in to export your descriptors."
        />
      }
    >
      <ExportData />
    </SignedInOnly>
  )
}
