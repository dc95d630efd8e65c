import { Button, Card, CardContent, Typography } from '@mui/material'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useAuth } from '../../../components/auth/index.ts'
import { onDemand } from '../../../lib/on-demand.tsx'

/** The signed-in user's export tools: their code is fetched when they are first drawn. */
export const ExportButtons = onDemand(
  () => import('./export-buttons.tsx').then((m) => m.ExportButtons),
  () => true,
)

/** Export card of the trainer: one CSV button per language, or the way to sign in. */
export function ExportCard({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation('descriptors')
  const titleId = useId()
  const { openSignIn } = useAuth()
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId} sx={{ height: '100%' }}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2" gutterBottom>
          {t('exportCard.title')}
        </Typography>
        {signedIn ? (
          <>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('exportCard.intro')}
            </Typography>
            <ExportButtons />
          </>
        ) : (
          <>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('exportCard.signedOut')}
            </Typography>
            <Button variant="contained" onClick={openSignIn}>
              {t('exportCard.goToSignIn')}
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  )
}
