import CheckCircleIcon from '@mui/icons-material/CheckCircle'
import GoogleIcon from '@mui/icons-material/Google'
import PhoneIcon from '@mui/icons-material/PhoneIphone'
import {
  Box,
  Button,
  Dialog,
  DialogContent,
  DialogTitle,
  Divider,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { errorCode } from '../../lib/api/errors.ts'
import {
  api,
  useGetSignInOptionsQuery,
  useStartPhoneSignInMutation,
  useVerifyPhoneCodeMutation,
} from '../../lib/api/generated.ts'
import { sessionStarted } from '../../lib/session/session-slice.ts'
import { useAppDispatch } from '../../lib/store/index.ts'
import type { ToastInput } from '../../lib/toast/toast-slice.ts'
import { useToast } from '../toast/use-toast.ts'
import {
  errorToast,
  sendCodeFailure,
  signInText,
  socialFailure,
  verifyCodeFailure,
} from './sign-in-messages.ts'
import {
  forgetSentCode,
  pendingCodeFor,
  readSentCode,
  rememberSentCode,
  secondsUntilResend,
  sessionStorageOrNothing,
} from './sent-code.ts'
import { openSignInPopup, redirectStartUrl, waitForPopup } from './social-sign-in.ts'
import { DialogCloseButton } from '../dialog-close-button.tsx'

const promises = ['stages', 'customDescriptors', 'sync'] as const

// Stands for the phone number while the sentence around it is translated.
const phoneSlot = '\u241F'

type Step = 'select' | 'phone' | 'code'

type FlowProps = {
  /** Called once the session is in the store. */
  onSignedIn: () => void
  /** Called just before the page leaves for a redirect sign-in. */
  onRedirecting: () => void
}

export type SignInDialogProps = FlowProps & {
  open: boolean
  /** A new value starts a fresh flow at 'select' with empty fields. */
  round: number
  onClose: () => void
}

/** 'Unlock Premium Features' (spec §2): social sign-in, or phone number then SMS code. */
export default function SignInDialog({ open, round, onClose, ...flow }: SignInDialogProps) {
  const titleId = useId()
  const { t } = useTranslation('auth')
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby={titleId}
      // Narrower margins on a phone leave the buttons room for their labels on one line.
      slotProps={{
        paper: {
          sx: { m: { xs: 2, sm: 4 }, width: { xs: 'calc(100% - 32px)', sm: 'calc(100% - 64px)' } },
        },
      }}
    >
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        {t('dialog.title')}
      </DialogTitle>
      <DialogCloseButton onClick={onClose} />
      <SignInFlow key={round} {...flow} />
    </Dialog>
  )
}

function SignInFlow({ onSignedIn, onRedirecting }: FlowProps) {
  const { data: options } = useGetSignInOptionsQuery()
  const socialProvider = options?.socialSignIn.enabled ? options.socialSignIn.providerName : null
  const dispatch = useAppDispatch()
  const { toast } = useToast()
  const { t } = useTranslation('auth')
  const [step, setStep] = useState<Step>('select')
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const [resendIn, setResendIn] = useState(0)
  const [social, setSocial] = useState<'idle' | 'waiting' | 'redirecting'>('idle')
  const [startPhoneSignIn, { isLoading: sending }] = useStartPhoneSignInMutation()
  const [verifyPhoneCode, { isLoading: verifying }] = useVerifyPhoneCodeMutation()
  const shownToast = useRef<{ dismiss: () => void } | null>(null)
  const popupWait = useRef<AbortController | null>(null)

  // Leaving the dialog while the popup is open closes the popup too.
  useEffect(() => {
    const wait = popupWait
    return () => wait.current?.abort()
  }, [])

  useEffect(() => {
    if (resendIn <= 0) return
    const timer = setTimeout(() => setResendIn((seconds) => seconds - 1), 1000)
    return () => clearTimeout(timer)
  }, [resendIn])

  // The newest message replaces the dialog's previous one instead of queueing behind it.
  const notify = (input: ToastInput) => {
    shownToast.current?.dismiss()
    shownToast.current = toast(input)
  }

  const storage = sessionStorageOrNothing()
  // A code sent earlier (this dialog, a closed one, before a reload) that still works.
  const [earlier, setEarlier] = useState(() => readSentCode(storage, Date.now()))

  const toCodeStep = (number: string, resendAfter: number) => {
    setPhone(number)
    setCode('')
    setResendIn(resendAfter)
    setStep('code')
  }

  const enterEarlierCode = () => {
    const sent = readSentCode(storage, Date.now())
    setEarlier(sent)
    if (sent) toCodeStep(sent.phone, secondsUntilResend(sent, Date.now()))
    else notify(errorToast(signInText('codeExpired')))
  }

  /** Sends a code, or, for the number a valid code went to, goes back to entering it. */
  const sendCode = async (event?: FormEvent, again = false) => {
    event?.preventDefault()
    const number = phone.trim()
    if (!number) return notify(errorToast(signInText('phoneRequired')))
    const pending = pendingCodeFor(storage, number, Date.now())
    if (pending && !again && secondsUntilResend(pending, Date.now()) > 0) {
      notify({
        title: signInText('codeStillValidTitle'),
        description: signInText('codeStillValid'),
      })
      return toCodeStep(number, secondsUntilResend(pending, Date.now()))
    }
    const result = await startPhoneSignIn({ phoneStartRequest: { phone: number } })
    if (result.error) {
      notify(sendCodeFailure(result.error))
      // Refused (too soon, too many), but the code sent before still works: enter that one.
      const stillValid = pendingCodeFor(storage, number, Date.now())
      if (stillValid && step !== 'code')
        toCodeStep(number, secondsUntilResend(stillValid, Date.now()))
      return
    }
    setEarlier(rememberSentCode(storage, number, result.data, Date.now()))
    notify({ title: signInText('codeSentTitle'), description: signInText('codeSent') })
    toCodeStep(number, result.data.resendAfterSeconds)
  }

  const verify = async (event: FormEvent) => {
    event.preventDefault()
    const entered = code.trim()
    if (!entered) return notify(errorToast(signInText('codeRequired')))
    const result = await verifyPhoneCode({
      phoneVerifyRequest: { phone: phone.trim(), code: entered },
    })
    if (result.error) return notify(verifyCodeFailure(result.error))
    forgetSentCode(storage)
    dispatch(sessionStarted(result.data))
    notify({
      title: t('messages.successTitle'),
      description: signInText('verified'),
      variant: 'success',
    })
    onSignedIn()
  }

  const redirect = () => {
    setSocial('redirecting')
    onRedirecting()
    window.location.assign(redirectStartUrl(window.location))
  }

  const continueWithProvider = async () => {
    // Opened in the click itself, or the browser counts it as an unasked-for popup.
    const popup = openSignInPopup()
    if (!popup) return redirect()
    setSocial('waiting')
    const wait = new AbortController()
    popupWait.current = wait
    const outcome = await waitForPopup(popup, wait.signal)
    popupWait.current = null
    if (outcome.kind === 'aborted') return
    if (outcome.kind === 'failed') {
      setSocial('idle')
      return notify(socialFailure(outcome.code))
    }
    // The popup carries no token: the session comes from the cookie its callback set. A popup
    // closed without a word may still have signed in (its report can be lost), so ask first.
    const session = await dispatch(api.endpoints.refreshSession.initiate({}))
    if (session.data) return onSignedIn()
    if (outcome.kind === 'closed') return redirect()
    setSocial('idle')
    notify(socialFailure(errorCode(session.error) ?? 'no_session'))
  }

  if (step === 'phone') {
    return (
      // Keyed by step: each step mounts afresh, so its field takes the focus.
      <DialogContent key="phone">
        <Stack component="form" noValidate onSubmit={sendCode} spacing={2} sx={{ pt: 0.5 }}>
          <Typography color="text.secondary">{t('phoneStep.intro')}</Typography>
          <TextField
            label={t('phoneStep.phoneNumber')}
            placeholder="+1234567890"
            type="tel"
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
            autoComplete="tel"
            autoFocus
            fullWidth
            slotProps={{ htmlInput: { maxLength: 32 } }}
          />
          <Button type="submit" variant="contained" size="large" loading={sending}>
            {t('phoneStep.sendCode')}
          </Button>
          {earlier ? (
            <Button variant="outlined" onClick={enterEarlierCode} disabled={sending}>
              {t('phoneStep.enterEarlierCode', { phone: earlier.phone })}
            </Button>
          ) : null}
          <Button onClick={() => setStep('select')} disabled={sending}>
            {t('phoneStep.backToOptions')}
          </Button>
        </Stack>
      </DialogContent>
    )
  }

  if (step === 'code') {
    const [beforePhone, afterPhone] = t('codeStep.intro', { phone: phoneSlot }).split(phoneSlot)
    return (
      <DialogContent key="code">
        <Stack component="form" noValidate onSubmit={verify} spacing={2} sx={{ pt: 0.5 }}>
          <Typography color="text.secondary">
            {beforePhone}
            <Box component="span" sx={{ color: 'text.primary', fontWeight: 600 }}>
              {phone.trim()}
            </Box>
            {afterPhone}
          </Typography>
          <TextField
            label={t('codeStep.verificationCode')}
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
            autoComplete="one-time-code"
            autoFocus
            fullWidth
            slotProps={{
              htmlInput: {
                maxLength: 6,
                inputMode: 'numeric',
                pattern: '[0-9]*',
                style: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' },
              },
            }}
          />
          <Button type="submit" variant="contained" size="large" loading={verifying}>
            {t('codeStep.verifyCode')}
          </Button>
          <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
            <Button
              onClick={() => {
                setCode('')
                setStep('phone')
              }}
              disabled={verifying}
            >
              {t('codeStep.useDifferentNumber')}
            </Button>
            <Button
              onClick={() => void sendCode(undefined, true)}
              disabled={resendIn > 0 || verifying}
              loading={sending}
            >
              {resendIn > 0
                ? t('codeStep.resendCodeIn', { seconds: resendIn })
                : t('codeStep.resendCode')}
            </Button>
          </Stack>
        </Stack>
      </DialogContent>
    )
  }

  return (
    <DialogContent key="select">
      <List dense disablePadding aria-label={t('dialog.promisesLabel')}>
        {promises.map((promise) => (
          <ListItem key={promise} disableGutters>
            <ListItemIcon sx={{ minWidth: 34 }}>
              <CheckCircleIcon color="success" fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={t(`dialog.promises.${promise}`)} />
          </ListItem>
        ))}
      </List>
      <Stack spacing={2} sx={{ mt: 2 }}>
        {/* Social sign-in only where the server has a provider configured. */}
        {socialProvider ? (
          <>
            <Button
              variant="outlined"
              size="large"
              startIcon={socialProvider === 'Google' ? <GoogleIcon /> : undefined}
              loadingPosition="start"
              loading={social !== 'idle'}
              // Focus stays in the dialog when a step is left (Escape, Tab keep working).
              autoFocus
              onClick={() => void continueWithProvider()}
            >
              {t('dialog.continueWith', { provider: socialProvider })}
            </Button>
            <Divider>{t('dialog.or')}</Divider>
          </>
        ) : null}
        <Button
          variant="contained"
          size="large"
          startIcon={<PhoneIcon />}
          autoFocus={!socialProvider}
          onClick={() => setStep('phone')}
        >
          {t('dialog.continueWithPhone')}
        </Button>
      </Stack>
    </DialogContent>
  )
}
