import {
  Chip,
  Dialog,
  DialogContent,
  DialogTitle,
  Paper,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material'
import type { SxProps, Theme } from '@mui/material'
import { useEffect, useEffectEvent, useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { DialogCloseButton } from '../../../components/dialog-close-button.tsx'
import { Flag } from '../../../components/flag.tsx'
import type { Descriptor } from '../../../lib/api/generated.ts'
import type { Category } from '../catalog.ts'
import type { LanguageOption } from '../languages.ts'

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  )
}

/**
 * Listens for a dialog's keys on the window while `active`, wherever the focus is. Presses with
 * Alt, Ctrl or Meta, and typing in a field, are left to the browser.
 */
export function useDialogKeys(active: boolean, onKey: (event: KeyboardEvent) => void): void {
  const listener = useEffectEvent((event: globalThis.KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return
    onKey(event)
  })
  useEffect(() => {
    if (!active) return
    window.addEventListener('keydown', listener)
    return () => window.removeEventListener('keydown', listener)
  }, [active])
}

/**
 * The dialog that shows one word at a time (training, review): its title over the language (and
 * `details`, announced as they change), a close button, and the content. Full screen on a phone.
 */
export function WordDialog({
  open,
  onClose,
  title,
  language,
  details,
  children,
  actions,
}: {
  open: boolean
  onClose: () => void
  title: string
  language: LanguageOption
  details?: ReactNode
  children: ReactNode
  /** Below the content, e.g. DialogActions. */
  actions?: ReactNode
}) {
  const titleId = useId()
  const theme = useTheme()
  // Read at once (no second render): it only shapes the dialog, which a pre-rendered page never has open.
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true })
  return (
    <Dialog
      open={open}
      onClose={onClose}
      // The page puts the focus back on its own button, which was hidden while the dialog was open.
      disableRestoreFocus
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      // Held at the top: centred, it jumped up each time the related words opened or closed.
      sx={{ '& .MuiDialog-container': { alignItems: 'flex-start' } }}
      slotProps={{ paper: { sx: { mt: fullScreen ? 0 : { sm: 8 } } } }}
    >
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        {title}
        <Typography
          component="span"
          variant="body2"
          color="text.secondary"
          sx={{ display: 'block' }}
          aria-live={details ? 'polite' : undefined}
        >
          <Flag code={language.code} /> {language.name}
          {details}
        </Typography>
      </DialogTitle>
      <DialogCloseButton onClick={onClose} />
      <DialogContent dividers>{children}</DialogContent>
      {actions}
    </Dialog>
  )
}

/** The card the word stands on, centred; `busy` while the next one loads. */
export function WordCard({
  busy,
  sx,
  children,
}: {
  busy: boolean
  /** Its height and spacing. */
  sx: SxProps<Theme>
  children: ReactNode
}) {
  return (
    <Paper
      variant="outlined"
      aria-live="polite"
      aria-busy={busy}
      sx={[
        {
          p: { xs: 2, sm: 3 },
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          textAlign: 'center',
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
    </Paper>
  )
}

/** The word itself, large, in its own language. */
export function ShownWord({ descriptor, testId }: { descriptor: Descriptor; testId: string }) {
  return (
    <Typography
      component="p"
      data-testid={testId}
      lang={descriptor.language}
      sx={{
        fontSize: { xs: '2.25rem', sm: '3rem' },
        fontWeight: 600,
        lineHeight: 1.15,
        overflowWrap: 'anywhere',
      }}
    >
      {descriptor.word}
    </Typography>
  )
}

/** The word's category: its type (gestalt or perception) and name. */
export function CategoryChip({ category }: { category: Category }) {
  const { t } = useTranslation('descriptors')
  return (
    <Chip
      size="small"
      color={category.type === 'gestalt' ? 'primary' : 'secondary'}
      label={`${t(`categoryType.${category.type}`)} · ${category.name}`}
    />
  )
}
