import AddIcon from '@mui/icons-material/Add'
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Divider,
  Grid,
  List,
  ListItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import type { SxProps, Theme } from '@mui/material'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { Language } from '../../../lib/api/generated.ts'
import type { PracticeDescriptorEntry, PracticeWriteUp } from '../api.ts'
import { DescriptorColumn } from './descriptor-column.tsx'
import { DrawingPad } from './drawing-pad.tsx'
import { formatTime } from '../format.ts'

type Stage2 = NonNullable<PracticeWriteUp['stage2']>
type Column = keyof Stage2
type MatrixRow = NonNullable<NonNullable<PracticeWriteUp['stage4']>['rows']>[number]
type BreakKind = NonNullable<PracticeWriteUp['breaks']>[number]['kind']

/**
 * The Stage II columns, the vocabulary category each draws its suggestions from (the label is
 * the catalogue's `writeUp.columns.<key>`).
 */
export const SENSORY_COLUMNS: { key: Column; category: string }[] = [
  { key: 'colours', category: 'colors' },
  { key: 'textures', category: 'textures' },
  { key: 'temperatures', category: 'temperatures' },
  { key: 'sounds', category: 'sounds' },
  { key: 'smells', category: 'smells' },
  { key: 'tastes', category: 'tastes' },
  { key: 'luminance', category: 'brightness' },
  { key: 'energetics', category: 'energetics' },
  { key: 'dimensionals', category: 'dimensionals' },
]

/** The Stage IV columns: the CRV abbreviation (kept in every language), the title translated. */
const MATRIX: { key: keyof MatrixRow; label: string }[] = [
  { key: 'S', label: 'S' },
  { key: 'D', label: 'D' },
  { key: 'AI', label: 'AI' },
  { key: 'EI', label: 'EI' },
  { key: 'T', label: 'T' },
  { key: 'I', label: 'I' },
  { key: 'AOL', label: 'AOL' },
  { key: 'AOLS', label: 'AOL/S' },
]

const BREAKS: BreakKind[] = ['AOL', 'AOL_DRIVE', 'BK', 'CONFUSION']

/** An ideogram's A and B components. */
const PARTS = ['a', 'b'] as const

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-label={title}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  )
}

/** A free text of the write-up, over several lines; `onChange` gets the whole new text. */
function NotesField({
  label,
  value,
  maxLength,
  readOnly,
  onChange,
  minRows = 2,
  sx,
}: {
  label: string
  value: string | undefined
  maxLength: number
  readOnly: boolean
  onChange: (text: string) => void
  minRows?: number
  sx?: SxProps<Theme>
}) {
  return (
    <TextField
      fullWidth
      multiline
      minRows={minRows}
      sx={sx}
      label={label}
      value={value ?? ''}
      slotProps={{ input: { readOnly }, htmlInput: { maxLength } }}
      onChange={(e) => onChange(e.target.value)}
    />
  )
}

/** The session's page as the CRV manual lays it out; every change goes to `onChange`. */
export function WriteUpEditor({
  value,
  onChange,
  readOnly,
  language,
}: {
  value: PracticeWriteUp
  onChange: (next: PracticeWriteUp) => void
  readOnly: boolean
  language: Language
}) {
  const { t, i18n } = useTranslation('practice')
  const ideograms = value.stage1?.ideograms ?? [{}]
  const rows = value.stage4?.rows ?? [{}]
  const breaks = value.breaks ?? []
  const set = (patch: Partial<PracticeWriteUp>) => onChange({ ...value, language, ...patch })
  const setColumn = (key: Column, entries: PracticeDescriptorEntry[]) =>
    set({ stage2: { ...value.stage2, [key]: entries } })

  return (
    <Stack spacing={2}>
      <Section title={t('writeUp.stage1')}>
        <Stack spacing={2} divider={<Divider flexItem />}>
          {ideograms.map((ideogram, i) => (
            <Grid container spacing={2} key={i}>
              <Grid size={{ xs: 12, md: 7 }}>
                <DrawingPad
                  label={t('writeUp.ideogram', { number: i + 1 })}
                  value={ideogram.drawing}
                  readOnly={readOnly}
                  onChange={(drawing) =>
                    set({
                      stage1: {
                        ideograms: ideograms.map((it, j) => (j === i ? { ...it, drawing } : it)),
                      },
                    })
                  }
                />
              </Grid>
              <Grid size={{ xs: 12, md: 5 }}>
                <Stack spacing={2}>
                  {PARTS.map((part) => (
                    <TextField
                      key={part}
                      label={part === 'a' ? t('writeUp.aComponent') : t('writeUp.bComponent')}
                      value={ideogram[part] ?? ''}
                      slotProps={{ input: { readOnly }, htmlInput: { maxLength: 500 } }}
                      onChange={(e) =>
                        set({
                          stage1: {
                            ideograms: ideograms.map((it, j) =>
                              j === i ? { ...it, [part]: e.target.value } : it,
                            ),
                          },
                        })
                      }
                    />
                  ))}
                </Stack>
              </Grid>
            </Grid>
          ))}
        </Stack>
        {readOnly || ideograms.length >= 20 ? null : (
          <Button
            startIcon={<AddIcon />}
            sx={{ mt: 2, minHeight: 44 }}
            onClick={() => set({ stage1: { ideograms: [...ideograms, {}] } })}
          >
            {t('writeUp.addIdeogram')}
          </Button>
        )}
      </Section>

      <Section title={t('writeUp.stage2')}>
        <Grid container spacing={2}>
          {SENSORY_COLUMNS.map((column) => (
            <Grid size={{ xs: 12, sm: 6, md: 4 }} key={column.key}>
              <DescriptorColumn
                label={t(`writeUp.columns.${column.key}`)}
                category={column.category}
                language={language}
                readOnly={readOnly}
                value={value.stage2?.[column.key] ?? []}
                onChange={(entries) => setColumn(column.key, entries)}
              />
            </Grid>
          ))}
        </Grid>
      </Section>

      <Section title={t('writeUp.aestheticImpact')}>
        <NotesField
          label={t('writeUp.aestheticImpact')}
          value={value.aestheticImpact}
          maxLength={2000}
          readOnly={readOnly}
          onChange={(aestheticImpact) => set({ aestheticImpact })}
        />
      </Section>

      <Section title={t('writeUp.stage3')}>
        <DrawingPad
          label={t('writeUp.sketch')}
          height={280}
          value={value.stage3?.sketch}
          readOnly={readOnly}
          onChange={(sketch) => set({ stage3: { ...value.stage3, sketch } })}
        />
        <NotesField
          sx={{ mt: 2 }}
          label={t('writeUp.sketchNotes')}
          value={value.stage3?.notes}
          maxLength={2000}
          readOnly={readOnly}
          onChange={(notes) => set({ stage3: { ...value.stage3, notes } })}
        />
      </Section>

      <Section title={t('writeUp.stage4')}>
        <Stack spacing={2} divider={<Divider flexItem />}>
          {rows.map((row, i) => (
            <Box
              key={i}
              role="group"
              aria-label={t('writeUp.matrixRow', { row: i + 1 })}
              sx={{
                display: 'grid',
                gap: 1,
                gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(8, minmax(0, 1fr))' },
              }}
            >
              {MATRIX.map((column) => (
                <TextField
                  key={column.key}
                  size="small"
                  label={column.label}
                  title={t(`writeUp.matrix.${column.key}`)}
                  value={row[column.key] ?? ''}
                  slotProps={{
                    input: { readOnly },
                    htmlInput: {
                      maxLength: 500,
                      'aria-label': t('writeUp.matrixCell', {
                        title: t(`writeUp.matrix.${column.key}`),
                        row: i + 1,
                      }),
                    },
                  }}
                  onChange={(e) =>
                    set({
                      stage4: {
                        rows: rows.map((r, j) =>
                          j === i ? { ...r, [column.key]: e.target.value } : r,
                        ),
                      },
                    })
                  }
                />
              ))}
            </Box>
          ))}
        </Stack>
        {readOnly || rows.length >= 100 ? null : (
          <Button
            startIcon={<AddIcon />}
            sx={{ mt: 2, minHeight: 44 }}
            onClick={() => set({ stage4: { rows: [...rows, {}] } })}
          >
            {t('writeUp.addRow')}
          </Button>
        )}
      </Section>

      <Section title={t('writeUp.breaks')}>
        {readOnly ? null : (
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1 }}>
            {BREAKS.map((kind) => (
              <Button
                key={kind}
                variant="outlined"
                sx={{ minHeight: 44 }}
                onClick={() =>
                  set({
                    breaks: [...breaks, { kind, at: new Date().toISOString(), text: '' }],
                  })
                }
              >
                {t(`writeUp.breakKinds.${kind}`)}
              </Button>
            ))}
          </Stack>
        )}
        {breaks.length === 0 ? (
          <Typography color="text.secondary">{t('writeUp.noBreaks')}</Typography>
        ) : (
          <List dense>
            {breaks.map((b, i) => (
              <ListItem key={`${b.at}-${i}`} disableGutters sx={{ gap: 1, flexWrap: 'wrap' }}>
                <Chip
                  label={BREAKS.includes(b.kind) ? t(`writeUp.breakKinds.${b.kind}`) : b.kind}
                  size="small"
                />
                <Typography variant="caption" color="text.secondary">
                  {formatTime(i18n.language, b.at)}
                </Typography>
                <TextField
                  size="small"
                  sx={{ flex: '1 1 12rem' }}
                  label={t('writeUp.whatCameUp')}
                  value={b.text ?? ''}
                  slotProps={{ input: { readOnly }, htmlInput: { maxLength: 500 } }}
                  onChange={(e) =>
                    set({
                      breaks: breaks.map((x, j) => (j === i ? { ...x, text: e.target.value } : x)),
                    })
                  }
                />
              </ListItem>
            ))}
          </List>
        )}
      </Section>

      <Section title={t('writeUp.summary')}>
        <NotesField
          minRows={3}
          label={t('writeUp.summary')}
          value={value.summary}
          maxLength={5000}
          readOnly={readOnly}
          onChange={(summary) => set({ summary })}
        />
      </Section>
    </Stack>
  )
}
