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
import type { ReactNode } from 'react'
import type { Language } from '../../../lib/api/generated.ts'
import type { PracticeDescriptorEntry, PracticeWriteUp } from '../api.ts'
import { DescriptorColumn } from './descriptor-column.tsx'
import { DrawingPad } from './drawing-pad.tsx'

type Stage2 = NonNullable<PracticeWriteUp['stage2']>
type Column = keyof Stage2
type MatrixRow = NonNullable<NonNullable<PracticeWriteUp['stage4']>['rows']>[number]
type BreakKind = NonNullable<PracticeWriteUp['breaks']>[number]['kind']

/** The Stage II columns, the vocabulary category each draws its suggestions from. */
export const SENSORY_COLUMNS: { key: Column; label: string; category: string }[] = [
  { key: 'colours', label: 'Colours', category: 'colors' },
  { key: 'textures', label: 'Textures', category: 'textures' },
  { key: 'temperatures', label: 'Temperatures', category: 'temperatures' },
  { key: 'sounds', label: 'Sounds', category: 'sounds' },
  { key: 'smells', label: 'Smells', category: 'smells' },
  { key: 'tastes', label: 'Tastes', category: 'tastes' },
  { key: 'luminance', label: 'Luminance', category: 'brightness' },
  { key: 'energetics', label: 'Energetics', category: 'energetics' },
  { key: 'dimensionals', label: 'Dimensionals', category: 'dimensionals' },
]

const MATRIX: { key: keyof MatrixRow; label: string; title: string }[] = [
  { key: 'S', label: 'S', title: 'Sensories' },
  { key: 'D', label: 'D', title: 'Dimensionals' },
  { key: 'AI', label: 'AI', title: 'Aesthetic impact' },
  { key: 'EI', label: 'EI', title: 'Emotional impact' },
  { key: 'T', label: 'T', title: 'Tangibles' },
  { key: 'I', label: 'I', title: 'Intangibles' },
  { key: 'AOL', label: 'AOL', title: 'Analytic overlay' },
  { key: 'AOLS', label: 'AOL/S', title: 'Analytic overlay with sensories' },
]

const BREAKS: { kind: BreakKind; label: string }[] = [
  { kind: 'AOL', label: 'AOL break' },
  { kind: 'AOL_DRIVE', label: 'AOL drive' },
  { kind: 'BK', label: 'Break (BK)' },
  { kind: 'CONFUSION', label: 'Confusion break' },
]

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
  const ideograms = value.stage1?.ideograms ?? [{}]
  const rows = value.stage4?.rows ?? [{}]
  const breaks = value.breaks ?? []
  const set = (patch: Partial<PracticeWriteUp>) => onChange({ ...value, language, ...patch })
  const setColumn = (key: Column, entries: PracticeDescriptorEntry[]) =>
    set({ stage2: { ...value.stage2, [key]: entries } })

  return (
    <Stack spacing={2}>
      <Section title="Stage I: ideograms">
        <Stack spacing={2} divider={<Divider flexItem />}>
          {ideograms.map((ideogram, i) => (
            <Grid container spacing={2} key={i}>
              <Grid size={{ xs: 12, md: 7 }}>
                <DrawingPad
                  label={`Ideogram ${i + 1}`}
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
                  {(['a', 'b'] as const).map((part) => (
                    <TextField
                      key={part}
                      label={
                        part === 'a'
                          ? 'A component (the feel of the motion)'
                          : 'B component (first gestalt)'
                      }
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
            Add ideogram
          </Button>
        )}
      </Section>

      <Section title="Stage II: sensories">
        <Grid container spacing={2}>
          {SENSORY_COLUMNS.map((column) => (
            <Grid size={{ xs: 12, sm: 6, md: 4 }} key={column.key}>
              <DescriptorColumn
                label={column.label}
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

      <Section title="Aesthetic impact">
        <TextField
          fullWidth
          multiline
          minRows={2}
          label="Aesthetic impact"
          value={value.aestheticImpact ?? ''}
          slotProps={{ input: { readOnly }, htmlInput: { maxLength: 2000 } }}
          onChange={(e) => set({ aestheticImpact: e.target.value })}
        />
      </Section>

      <Section title="Stage III: sketch">
        <DrawingPad
          label="Sketch"
          height={280}
          value={value.stage3?.sketch}
          readOnly={readOnly}
          onChange={(sketch) => set({ stage3: { ...value.stage3, sketch } })}
        />
        <TextField
          fullWidth
          multiline
          minRows={2}
          sx={{ mt: 2 }}
          label="Sketch notes"
          value={value.stage3?.notes ?? ''}
          slotProps={{ input: { readOnly }, htmlInput: { maxLength: 2000 } }}
          onChange={(e) => set({ stage3: { ...value.stage3, notes: e.target.value } })}
        />
      </Section>

      <Section title="Stage IV: matrix">
        <Stack spacing={2} divider={<Divider flexItem />}>
          {rows.map((row, i) => (
            <Box
              key={i}
              role="group"
              aria-label={`Matrix row ${i + 1}`}
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
                  title={column.title}
                  value={row[column.key] ?? ''}
                  slotProps={{
                    input: { readOnly },
                    htmlInput: { maxLength: 500, 'aria-label': `${column.title}, row ${i + 1}` },
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
            Add row
          </Button>
        )}
      </Section>

      <Section title="Breaks">
        {readOnly ? null : (
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1 }}>
            {BREAKS.map((b) => (
              <Button
                key={b.kind}
                variant="outlined"
                sx={{ minHeight: 44 }}
                onClick={() =>
                  set({
                    breaks: [...breaks, { kind: b.kind, at: new Date().toISOString(), text: '' }],
                  })
                }
              >
                {b.label}
              </Button>
            ))}
          </Stack>
        )}
        {breaks.length === 0 ? (
          <Typography color="text.secondary">No breaks declared.</Typography>
        ) : (
          <List dense>
            {breaks.map((b, i) => (
              <ListItem key={`${b.at}-${i}`} disableGutters sx={{ gap: 1, flexWrap: 'wrap' }}>
                <Chip label={BREAKS.find((x) => x.kind === b.kind)?.label ?? b.kind} size="small" />
                <Typography variant="caption" color="text.secondary">
                  {new Date(b.at).toLocaleTimeString()}
                </Typography>
                <TextField
                  size="small"
                  sx={{ flex: '1 1 12rem' }}
                  label="What came up"
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

      <Section title="Summary">
        <TextField
          fullWidth
          multiline
          minRows={3}
          label="Summary"
          value={value.summary ?? ''}
          slotProps={{ input: { readOnly }, htmlInput: { maxLength: 5000 } }}
          onChange={(e) => set({ summary: e.target.value })}
        />
      </Section>
    </Stack>
  )
}
