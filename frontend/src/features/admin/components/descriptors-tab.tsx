import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../../../config/paths.ts'
import { errorMessage } from '../../../lib/api/index.ts'
import type { CountBy } from '../../../lib/api/generated.ts'
import { useGetAdminStatsQuery } from '../api.ts'
import { formatNumber, stageLabel, statusLabel } from '../format.ts'

function Counts({
  title,
  counts,
  label,
}: {
  title: string
  counts: CountBy[]
  label?: (key: string) => string
}) {
  const { i18n } = useTranslation('admin')
  return (
    <Paper variant="outlined" sx={{ p: 2, flex: 1, minWidth: 200 }}>
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      <Table size="small" aria-label={title}>
        <TableBody>
          {counts.map((c) => (
            <TableRow key={c.key}>
              <TableCell>{label ? label(c.key) : c.key}</TableCell>
              <TableCell align="right">{formatNumber(c.count, i18n.language)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  )
}

/** Links to the descriptor pages and the vocabulary's real figures. */
export function DescriptorsTab() {
  const { data, error, isLoading } = useGetAdminStatsQuery()
  const { t } = useTranslation('admin')
  return (
    <Stack spacing={3}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button variant="contained" component={RouterLink} to={paths.descriptorManagement}>
          {t('descriptorsTab.management')}
        </Button>
        <Button variant="outlined" component={RouterLink} to={paths.descriptorTraining}>
          {t('descriptorsTab.training')}
        </Button>
        <Button variant="outlined" component={RouterLink} to={paths.pendingDescriptors}>
          {t('descriptorsTab.pending')}
        </Button>
      </Stack>
      {isLoading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label={t('descriptorsTab.loading')} />
        </Box>
      ) : error ? (
        <Alert severity="error">{errorMessage(error, t('descriptorsTab.loadFailed'))}</Alert>
      ) : data ? (
        <>
          <Typography>
            {t('descriptorsTab.summary', {
              descriptors: data.descriptors.total,
              concepts: data.descriptors.concepts,
            })}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <Counts
              title={t('descriptorsTab.byStage')}
              counts={data.descriptors.byStage}
              label={stageLabel}
            />
            <Counts
              title={t('descriptorsTab.byStatus')}
              counts={data.descriptors.byStatus}
              label={statusLabel}
            />
            <Counts
              title={t('descriptorsTab.byLanguage')}
              counts={data.descriptors.byLanguage}
              label={(k) => k.toUpperCase()}
            />
          </Stack>
        </>
      ) : null}
    </Stack>
  )
}
