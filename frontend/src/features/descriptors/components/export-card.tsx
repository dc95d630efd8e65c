import DownloadIcon from '@mui/icons-material/Download'
import { Button, Card, CardContent, Link, Stack, Typography } from '@mui/material'
import { useId } from 'react'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../../../config/paths.ts'
import { exportLanguages } from '../languages.ts'
import { useCsvExport } from '../use-descriptor-actions.ts'

/** Export card of the trainer: one CSV button per language, or the way to sign in. */
export function ExportCard({ signedIn }: { signedIn: boolean }) {
  const titleId = useId()
  const { exportCsv, exporting } = useCsvExport()
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId} sx={{ height: '100%' }}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2" gutterBottom>
          Export Your Descriptors
        </Typography>
        {signedIn ? (
          <>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              Download the descriptors you added as a CSV file, one language at a time.
            </Typography>
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 2 }}>
              {exportLanguages.map((language) => (
                <Button
                  key={language.code}
                  size="small"
                  variant="outlined"
                  startIcon={<DownloadIcon />}
                  loading={exporting === language.code}
                  disabled={exporting !== null && exporting !== language.code}
                  onClick={() => void exportCsv(language.code)}
                  lang={language.code}
                >
                  {language.name}
                </Button>
              ))}
            </Stack>
            <Link component={RouterLink} to={paths.exportData}>
              Advanced Export
            </Link>
          </>
        ) : (
          <>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              Sign in to export the custom descriptors you create as CSV files.
            </Typography>
            <Button variant="contained" component={RouterLink} to={paths.home}>
              Go to Sign In
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  )
}
