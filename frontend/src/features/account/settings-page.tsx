import DeleteForeverIcon from '@mui/icons-material/DeleteForever'
import DownloadIcon from '@mui/icons-material/Download'
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Checkbox,
  FormControl,
  FormControlLabel,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  Typography,
} from '@mui/material'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAppDispatch, useAppSelector } from '../../lib/store/index.ts'
import { SignedInOnly, SignInRequired } from '../../components/access/index.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DeleteHistoryCard } from '../../components/delete-history-card.tsx'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { forgetUser } from '../../lib/account/forget-user.ts'
import { saveDownload } from '../../lib/download.ts'
import { errorMessage } from '../../lib/api/errors.ts'
import {
  changeUiLanguage,
  currentUiLanguage,
  isUiLanguage,
  uiLanguages,
} from '../../lib/i18n/index.ts'
import { selectUser, sessionSlice } from '../../lib/session/session-slice.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { accountApi, useDeleteAccountMutation } from './api.ts'

function LanguageCard() {
  const { t, i18n } = useTranslation('account')
  const labelId = useId()
  const current = i18n.resolvedLanguage ? currentUiLanguage() : 'en'
  return (
    <Card variant="outlined" component="section" aria-labelledby={`${labelId}-title`}>
      <CardContent>
        <Typography variant="h6" component="h2" id={`${labelId}-title`} gutterBottom>
          {t('language.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('language.text')}
        </Typography>
        <FormControl sx={{ minWidth: 220 }}>
          <InputLabel id={labelId}>{t('language.label')}</InputLabel>
          <Select
            labelId={labelId}
            label={t('language.label')}
            value={current}
            onChange={(e) => {
              if (isUiLanguage(e.target.value)) void changeUiLanguage(e.target.value)
            }}
          >
            {uiLanguages.map((l) => (
              <MenuItem key={l.code} value={l.code} lang={l.code}>
                {l.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </CardContent>
    </Card>
  )
}

function ExportCard() {
  const { t } = useTranslation('account')
  const dispatch = useAppDispatch()
  const { toast } = useToast()
  const [busy, setBusy] = useState(false)
  const download = async () => {
    setBusy(true)
    try {
      const result = await dispatch(
        accountApi.endpoints.exportAccount.initiate(undefined, {
          subscribe: false,
          forceRefetch: true,
        }),
      )
      if (result.error || !result.data) {
        toast({
          title: t('export.failed'),
          description: errorMessage(result.error, t('tryAgain')),
          variant: 'destructive',
        })
        return
      }
      const fileName = `crv-training-account-${result.data.exportedAt.slice(0, 10)}.json`
      saveDownload(
        fileName,
        new Blob([JSON.stringify(result.data, null, 2)], { type: 'application/json' }),
      )
      toast({ title: t('export.done'), description: fileName, variant: 'success' })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card variant="outlined" component="section" aria-label={t('export.title')}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('export.title')}
        </Typography>
        <Typography color="text.secondary">{t('export.text')}</Typography>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button
          variant="contained"
          startIcon={<DownloadIcon />}
          loading={busy}
          onClick={() => void download()}
        >
          {t('export.button')}
        </Button>
      </CardActions>
    </Card>
  )
}

function HistoryCard() {
  const { t } = useTranslation('account')
  return (
    <DeleteHistoryCard
      heading={{ title: t('history.title'), text: t('history.text') }}
      texts={{
        button: t('history.button'),
        confirmTitle: t('history.confirmTitle'),
        confirmText: t('history.confirmText'),
        confirmLabel: t('history.confirmButton'),
        cancel: t('cancel'),
        done: t('history.done'),
        failed: t('history.failed'),
        tryAgain: t('tryAgain'),
      }}
    />
  )
}

function DeleteAccountCard({ onDeleted }: { onDeleted: () => void }) {
  const { t } = useTranslation('account')
  const user = useAppSelector(selectUser)
  const dispatch = useAppDispatch()
  const [deleteAccount, deleting] = useDeleteAccountMutation()
  const [confirming, setConfirming] = useState(false)
  const [understood, setUnderstood] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const close = () => {
    setConfirming(false)
    setUnderstood(false)
    setFailure(null)
  }
  const onDelete = async () => {
    setFailure(null)
    const result = await deleteAccount()
    if ('error' in result) {
      setFailure(errorMessage(result.error, t('tryAgain')))
      return
    }
    if (user) await forgetUser(user.id)
    dispatch(sessionSlice.actions.signedOut())
    onDeleted()
  }
  return (
    <Card
      variant="outlined"
      component="section"
      aria-label={t('delete.title')}
      sx={{ borderColor: 'error.main' }}
    >
      <CardContent>
        <Typography variant="h6" component="h2" color="error" gutterBottom>
          {t('delete.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {t('delete.text')}
        </Typography>
        <Box component="ul" sx={{ m: 0, pl: 3, color: 'text.secondary' }}>
          <li>{t('delete.itemWords')}</li>
          <li>{t('delete.itemReviews')}</li>
          <li>{t('delete.itemGestalts')}</li>
          <li>{t('delete.itemPractice')}</li>
          <li>{t('delete.itemAccount')}</li>
        </Box>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t('delete.kept')}
        </Typography>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button
          variant="outlined"
          color="error"
          startIcon={<DeleteForeverIcon />}
          onClick={() => setConfirming(true)}
        >
          {t('delete.button')}
        </Button>
      </CardActions>
      <ConfirmDialog
        open={confirming}
        title={t('delete.confirmTitle')}
        cancelLabel={t('cancel')}
        confirmLabel={t('delete.confirmButton')}
        destructive
        confirmVariant="outlined"
        confirmDisabled={!understood}
        busy={deleting.isLoading}
        extra={
          <>
            <FormControlLabel
              sx={{ mt: 2 }}
              control={
                <Checkbox checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
              }
              label={t('delete.understood')}
            />
            {failure ? (
              <Alert severity="error" sx={{ mt: 2 }} role="alert">
                {failure}
              </Alert>
            ) : null}
          </>
        }
        onCancel={close}
        onConfirm={() => void onDelete()}
      >
        {t('delete.confirmText')}
      </ConfirmDialog>
    </Card>
  )
}

function Deleted() {
  const { t } = useTranslation('account')
  return (
    <PageContainer>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: { xs: 4, sm: 8 } }}>
        <Typography variant="h4" component="h1">
          {t('deleted.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ maxWidth: 520 }}>
          {t('deleted.text')}
        </Typography>
        {/* A fresh start: nothing of the old session stays in memory. */}
        <Button variant="contained" onClick={() => window.location.assign('/')}>
          {t('deleted.home')}
        </Button>
      </Stack>
    </PageContainer>
  )
}

/** Settings: the interface language, the user's data (export, history) and their account. */
export function SettingsPage() {
  usePageMeta('settings')
  const { t } = useTranslation('account')
  const [deleted, setDeleted] = useState(false)
  if (deleted) return <Deleted />
  return (
    <SignedInOnly
      fallback={<SignInRequired title={t('signInTitle')} message={t('signInMessage')} />}
    >
      <PageContainer>
        <Typography variant="h4" component="h1" gutterBottom>
          {t('title')}
        </Typography>
        <Stack spacing={3} sx={{ maxWidth: 720 }}>
          <LanguageCard />
          <ExportCard />
          <HistoryCard />
          <DeleteAccountCard onDeleted={() => setDeleted(true)} />
        </Stack>
      </PageContainer>
    </SignedInOnly>
  )
}
