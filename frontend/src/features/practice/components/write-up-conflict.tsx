import { Alert, AlertTitle, Box, Button, Paper, Stack, Typography } from '@mui/material'
import type { ReactNode } from 'react'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { PracticeWriteUp } from '../api.ts'
import { formatTime } from '../format.ts'
import type { Choice } from '../use-autosave.ts'
import { differences, mergeWriteUps } from '../write-up-drafts.ts'
import type { Label, Shown } from '../write-up-drafts.ts'
import { DrawingPad } from './drawing-pad.tsx'

function ShownPart({ shown, label }: { shown: Shown; label: string }) {
  const { t, i18n } = useTranslation('practice')
  const empty = (
    <Typography color="text.secondary" sx={{ fontStyle: 'italic' }}>
      {t('session.conflict.empty')}
    </Typography>
  )
  switch (shown.kind) {
    case 'text':
      return shown.text ? (
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {shown.text}
        </Typography>
      ) : (
        empty
      )
    case 'words':
      return shown.words.length > 0 ? <Typography>{shown.words.join(', ')}</Typography> : empty
    case 'breaks':
      return shown.breaks.length > 0 ? (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {shown.breaks.map((b) => (
            <li key={`${b.kind}@${b.at}`}>
              {t(`writeUp.breakKinds.${b.kind}`)} · {formatTime(i18n.language, b.at)}
              {b.text ? ` · ${b.text}` : ''}
            </li>
          ))}
        </Box>
      ) : (
        empty
      )
    case 'drawing':
      return shown.drawing ? (
        <DrawingPad label={label} value={shown.drawing} readOnly height={140} />
      ) : (
        empty
      )
  }
}

/** Each part in which two write-ups differ, this device's beside (on a phone, above) the other. */
function Differences({
  mine,
  other,
  mineHeading,
  otherHeading,
}: {
  mine: PracticeWriteUp
  other: PracticeWriteUp
  mineHeading: string
  otherHeading: string
}) {
  const { t } = useTranslation('practice')
  const found = useMemo(() => differences(mine, other), [mine, other])
  const labelOf = (label: Label) =>
    label.map(([key, values]) => t(key as 'writeUp.summary', values ?? {})).join(' · ')
  if (found.length === 0) return <Typography>{t('session.conflict.same')}</Typography>
  return (
    <Stack spacing={2} component="dl" sx={{ m: 0 }}>
      {found.map((difference) => {
        const label = labelOf(difference.label)
        const side = (heading: string, shown: Shown): ReactNode => (
          <Paper variant="outlined" component="dd" sx={{ m: 0, p: 1.5, minWidth: 0 }}>
            <Typography variant="overline" component="p" color="text.secondary">
              {heading}
            </Typography>
            <ShownPart shown={shown} label={`${label} · ${heading}`} />
          </Paper>
        )
        return (
          <Box key={difference.id}>
            <Typography variant="subtitle2" component="dt" sx={{ mb: 0.5 }}>
              {label}
            </Typography>
            <Box
              sx={{
                display: 'grid',
                gap: 1,
                gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
              }}
            >
              {side(mineHeading, difference.mine)}
              {side(otherHeading, difference.theirs)}
            </Box>
          </Box>
        )
      })}
    </Stack>
  )
}

/**
 * A warning region that sets this device's write-up beside another (`otherHeading`), part by
 * part, above what the viewer can do about it (`children`).
 */
function Comparison({
  title,
  text,
  mine,
  other,
  otherHeading,
  children,
}: {
  title: string
  text: string
  mine: PracticeWriteUp
  other: PracticeWriteUp
  otherHeading: string
  children: ReactNode
}) {
  const { t } = useTranslation('practice')
  return (
    <Alert
      severity="warning"
      component="section"
      role="region"
      aria-label={title}
      sx={{ '& .MuiAlert-message': { width: '100%', minWidth: 0 } }}
    >
      <AlertTitle>{title}</AlertTitle>
      <Typography sx={{ mb: 2 }}>{text}</Typography>
      <Differences
        mine={mine}
        other={other}
        mineHeading={t('session.conflict.mine')}
        otherHeading={otherHeading}
      />
      {children}
    </Alert>
  )
}

/**
 * Another device saved the write-up over the revision this device's text was written on: both
 * are shown, part by part, until the viewer keeps one or both (merged, when that fits).
 */
export function WriteUpConflict({
  mine,
  theirs,
  onChoose,
}: {
  mine: PracticeWriteUp
  theirs: PracticeWriteUp
  onChoose: (choice: Choice) => void
}) {
  const { t } = useTranslation('practice')
  const fits = useMemo(() => mergeWriteUps(mine, theirs).fits, [mine, theirs])
  return (
    <Comparison
      title={t('session.conflict.title')}
      text={t('session.conflict.text')}
      mine={mine}
      other={theirs}
      otherHeading={t('session.conflict.theirs')}
    >
      {fits ? null : <Typography sx={{ mt: 2 }}>{t('session.conflict.tooLong')}</Typography>}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          disabled={!fits}
          onClick={() => onChoose('both')}
          sx={{ minHeight: 44 }}
        >
          {t('session.conflict.keepBoth')}
        </Button>
        <Button variant="outlined" onClick={() => onChoose('mine')} sx={{ minHeight: 44 }}>
          {t('session.conflict.keepMine')}
        </Button>
        <Button variant="outlined" onClick={() => onChoose('theirs')} sx={{ minHeight: 44 }}>
          {t('session.conflict.takeTheirs')}
        </Button>
      </Stack>
    </Comparison>
  )
}

/**
 * Text of this device that never reached the server before the write-up was locked: shown
 * beside the locked write-up so it can be copied, until the viewer lets it go.
 */
export function UnsavedAfterLock({
  mine,
  locked,
  onDiscard,
}: {
  mine: PracticeWriteUp
  locked: PracticeWriteUp
  onDiscard: () => void
}) {
  const { t } = useTranslation('practice')
  return (
    <Comparison
      title={t('session.leftOver.title')}
      text={t('session.leftOver.text')}
      mine={mine}
      other={locked}
      otherHeading={t('session.leftOver.locked')}
    >
      <Button variant="outlined" onClick={onDiscard} sx={{ mt: 2, minHeight: 44 }}>
        {t('session.leftOver.discard')}
      </Button>
    </Comparison>
  )
}
