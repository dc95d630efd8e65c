import {
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material'
import { useTranslation } from 'react-i18next'
import { errorMessage } from '../../../lib/api/index.ts'
import { useGetPracticePoolHealthQuery } from '../api.ts'
import type { PracticePoolHealth } from '../api.ts'
import { fixed, formatNumber } from '../format.ts'

/** Room for the tables on a 390-pixel phone: less padding at the sides. */
const compactCells = { '& th, & td': { px: { xs: 0.75, sm: 2 } } } as const

const percent = (language: string, share: number) =>
  new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(share)

/**
 * How the chosen pool holds up: its size, the share of each gestalt class (a class above the
 * limit is flagged), how well its taggers agree, and the fresh sessions its most active viewers
 * have left (named by a short hash, never by id or name).
 */
export function PoolHealthPanel({ poolId }: { poolId: string }) {
  const { t } = useTranslation('practice')
  const { data, error, isLoading } = useGetPracticePoolHealthQuery({ poolId })
  return (
    <Card variant="outlined" component="section" aria-labelledby="pool-health-heading">
      <CardContent>
        <Typography variant="h6" component="h2" id="pool-health-heading">
          {t('poolHealth.heading')}
        </Typography>
        {isLoading ? (
          <CircularProgress size={24} aria-label={t('poolHealth.loading')} />
        ) : error || !data ? (
          <Alert severity="error">{errorMessage(error, t('poolHealth.loadFailed'))}</Alert>
        ) : (
          <HealthFigures health={data} />
        )}
      </CardContent>
    </Card>
  )
}

function HealthFigures({ health }: { health: PracticePoolHealth }) {
  const { t, i18n } = useTranslation('practice')
  const language = i18n.language
  const limit = percent(language, health.classShareLimit)
  const crowded = health.classes.filter((c) => c.aboveLimit)
  const { tagAgreement } = health
  return (
    <>
      <Typography sx={{ mb: 1 }}>
        {t('poolHealth.size', { count: health.activeTargets })}
      </Typography>
      {crowded.map((c) => (
        <Alert key={c.gestalt} severity="warning" sx={{ mb: 1 }}>
          {t('poolHealth.classAboveLimit', {
            gestalt: t(`poolHealth.classes.${c.gestalt}`),
            share: percent(language, c.share),
            limit,
          })}
        </Alert>
      ))}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 2, md: 4 } }}>
        <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
          <Typography variant="subtitle1" component="h3" id="pool-health-classes">
            {t('poolHealth.classesHeading')}
          </Typography>
          <Table size="small" aria-labelledby="pool-health-classes" sx={compactCells}>
            <TableHead>
              <TableRow>
                <TableCell>{t('poolHealth.class')}</TableCell>
                <TableCell align="right">{t('poolHealth.targets')}</TableCell>
                <TableCell align="right">{t('poolHealth.share')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {health.classes.map((c) => (
                <TableRow key={c.gestalt}>
                  <TableCell component="th" scope="row">
                    {t(`poolHealth.classes.${c.gestalt}`)}
                    {c.aboveLimit ? (
                      <Chip
                        size="small"
                        color="warning"
                        label={t('poolHealth.aboveLimit', { limit })}
                        sx={{ ml: 1 }}
                      />
                    ) : null}
                  </TableCell>
                  <TableCell align="right">{formatNumber(language, c.targets)}</TableCell>
                  <TableCell align="right">{percent(language, c.share)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {health.unclassified > 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('poolHealth.unclassified', { count: health.unclassified })}
            </Typography>
          ) : null}
        </Box>
        <Box sx={{ flex: '1 1 320px', minWidth: 0 }}>
          <Typography variant="subtitle1" component="h3">
            {t('poolHealth.agreementHeading')}
          </Typography>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {tagAgreement.meanKappa === null
              ? t('poolHealth.noSecondTags')
              : t('poolHealth.agreement', {
                  kappa: fixed(language, tagAgreement.meanKappa),
                  count: tagAgreement.targets,
                })}
          </Typography>
          <Typography variant="subtitle1" component="h3" id="pool-health-viewers">
            {t('poolHealth.viewersHeading')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('poolHealth.viewersExplanation')}
          </Typography>
          {health.viewers.length === 0 ? (
            <Typography variant="body2">{t('poolHealth.noViewers')}</Typography>
          ) : (
            <Table size="small" aria-labelledby="pool-health-viewers" sx={compactCells}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('poolHealth.viewer')}</TableCell>
                  <TableCell align="right">{t('poolHealth.sessions')}</TableCell>
                  <TableCell align="right">{t('poolHealth.freshSessions')}</TableCell>
                  <TableCell align="right">{t('poolHealth.restedSessions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {health.viewers.map((v) => (
                  <TableRow key={v.viewer}>
                    <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace' }}>
                      {v.viewer}
                    </TableCell>
                    <TableCell align="right">{formatNumber(language, v.sessions)}</TableCell>
                    <TableCell align="right">
                      {formatNumber(language, v.freshSessions)}
                      <Typography variant="caption" component="span" sx={{ display: 'block' }}>
                        {t('poolHealth.setsOf', { size: v.candidateCount, unseen: v.unseen })}
                      </Typography>
                    </TableCell>
                    <TableCell align="right">
                      {formatNumber(language, v.restedSessions)}
                      <Typography variant="caption" component="span" sx={{ display: 'block' }}>
                        {t('poolHealth.restedPictures', { count: v.rested })}
                      </Typography>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Box>
      </Box>
    </>
  )
}
