import { Card, CardContent, Typography } from '@mui/material'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'

/** The steps in order; their titles and texts are in the catalogue (`protocol.steps.<step>`). */
const steps = ['select', 'write', 'sentence', 'related', 'impressions', 'reveal'] as const

/** The six steps of a descriptor training session. */
export function TrainingProtocolCard() {
  const { t } = useTranslation('descriptors')
  const titleId = useId()
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId} sx={{ height: '100%' }}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2" gutterBottom>
          {t('protocol.title')}
        </Typography>
        <Typography component="ol" sx={{ pl: 2.5, m: 0, '& li + li': { mt: 1.25 } }}>
          {steps.map((step) => (
            <li key={step}>
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {t(`protocol.steps.${step}.title`)}
              </Typography>{' '}
              <Typography component="span" color="text.secondary">
                {t(`protocol.steps.${step}.text`)}
              </Typography>
            </li>
          ))}
        </Typography>
      </CardContent>
    </Card>
  )
}
