import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward'
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward'
import {
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  IconButton,
  Stack,
  Typography,
} from '@mui/material'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { DragEvent } from 'react'
import type { PracticeCandidate } from '../api.ts'
import { moveItem } from '../ranking.ts'

/**
 * The candidates, ranked by the viewer (1 = best match): dragged into place, or moved with the
 * up and down buttons (keyboard and touch). As pictures, or as their tags for a viewer who
 * chose not to see the wrong pictures.
 */
export function JudgePanel({
  candidates,
  byText,
  judging,
  onJudge,
}: {
  candidates: PracticeCandidate[]
  byText: boolean
  judging: boolean
  onJudge: (ranking: string[]) => void
}) {
  const { t } = useTranslation('practice')
  const [order, setOrder] = useState(() => candidates.map((c) => c.id))
  const [dragged, setDragged] = useState<number | null>(null)
  const byId = new Map(candidates.map((c) => [c.id, c]))
  const move = (from: number, to: number) => setOrder((o) => moveItem(o, from, to))
  return (
    <Card variant="outlined" component="section" aria-label={t('judge.region')}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('judge.heading')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('judge.intro')}
        </Typography>
        <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {order.map((id, index) => {
            const candidate = byId.get(id)
            if (!candidate) return null
            return (
              <Box
                component="li"
                key={id}
                draggable
                aria-label={t('judge.rank', { rank: index + 1 })}
                onDragStart={() => setDragged(index)}
                onDragOver={(e: DragEvent) => e.preventDefault()}
                onDrop={() => {
                  if (dragged !== null) move(dragged, index)
                  setDragged(null)
                }}
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 1.5,
                  p: 1,
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 1,
                  cursor: 'grab',
                }}
              >
                <Typography
                  variant="h5"
                  component="span"
                  sx={{ width: '2ch', textAlign: 'center' }}
                >
                  {index + 1}
                </Typography>
                {byText ? (
                  <Typography sx={{ flex: 1, minWidth: 0 }}>{candidate.tags.join(', ')}</Typography>
                ) : (
                  <Box
                    component="img"
                    src={candidate.imageUrl}
                    alt={t('judge.candidateAlt', { rank: index + 1 })}
                    sx={{
                      flex: 1,
                      minWidth: 0,
                      maxWidth: 320,
                      maxHeight: 200,
                      objectFit: 'contain',
                    }}
                  />
                )}
                <Stack>
                  <IconButton
                    aria-label={t('judge.moveUp', { rank: index + 1 })}
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                    sx={{ width: 44, height: 44 }}
                  >
                    <ArrowUpwardIcon />
                  </IconButton>
                  <IconButton
                    aria-label={t('judge.moveDown', { rank: index + 1 })}
                    disabled={index === order.length - 1}
                    onClick={() => move(index, index + 1)}
                    sx={{ width: 44, height: 44 }}
                  >
                    <ArrowDownwardIcon />
                  </IconButton>
                </Stack>
              </Box>
            )
          })}
        </Stack>
        <Button
          variant="contained"
          size="large"
          sx={{ mt: 2, minHeight: 44 }}
          disabled={judging}
          startIcon={judging ? <CircularProgress size={18} aria-hidden /> : null}
          onClick={() => onJudge(order)}
        >
          {t('judge.submit')}
        </Button>
      </CardContent>
    </Card>
  )
}
