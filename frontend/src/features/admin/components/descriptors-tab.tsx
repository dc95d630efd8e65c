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
import { count } from '../../../lib/text/count.ts'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../../../config/paths.ts'
import { errorMessage } from '../../../lib/api/index.ts'
import type { CountBy } from '../../../lib/api/generated.ts'
import { useGetAdminStatsQuery } from '../api.ts'

function Counts({
  title,
  counts,
  label,
}: {
  title: string
  counts: CountBy[]
  label?: (key: string) => string
}) {
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
              <TableCell align="right">{c.count.toLocaleString('en')}</TableCell>
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
  return (
    <Stack spacing={3}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button variant="contained" component={RouterLink} to={paths.descriptorManagement}>
          Descriptor Management
        </Button>
        <Button variant="outlined" component={RouterLink} to={paths.descriptorTraining}>
          Descriptor Training
        </Button>
        <Button variant="outlined" component={RouterLink} to={paths.pendingDescriptors}>
          Pending Descriptors
        </Button>
      </Stack>
      {isLoading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label="Loading figures" />
        </Box>
      ) : error ? (
        <Alert severity="error">{errorMessage(error, 'Failed to load descriptors')}</Alert>
      ) : data ? (
        <>
          <Typography>
            {count(data.descriptors.total, 'descriptor')} ·{' '}
            {count(data.descriptors.concepts, 'concept')}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <Counts title="By stage" counts={data.descriptors.byStage} />
            <Counts title="By status" counts={data.descriptors.byStatus} />
            <Counts
              title="By language"
              counts={data.descriptors.byLanguage}
              label={(k) => k.toUpperCase()}
            />
          </Stack>
        </>
      ) : null}
    </Stack>
  )
}
