import { useTranslation } from 'react-i18next'
import { Box, CircularProgress } from '@mui/material'

/** Stands in for a guarded page while the session is restored, so no refusal flashes first. */
export function RestoringSession() {
  const { t } = useTranslation()
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: { xs: 6, sm: 10 } }}>
      <CircularProgress aria-label={t('access.checkingSignIn')} />
    </Box>
  )
}
