import { Card, CardContent, Typography } from '@mui/material'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'

const steps = ['settle', 'choose', 'flash', 'record', 'compare'] as const

/** How a tachistoscope session goes. */
export function TrainingProtocolCard() {
  const titleId = useId()
  const { t } = useTranslation('tachistoscope')
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2" gutterBottom>
          {t('protocol.title')}
        </Typography>
        <Typography component="ol" sx={{ pl: 2.5, m: 0, '& li + li': { mt: 1.25 } }}>
          {steps.map((step) => (
            <li key={step}>
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {t('protocol.stepTitle', { title: t(`protocol.${step}.title`) })}
              </Typography>{' '}
              <Typography component="span" color="text.secondary">
                {t(`protocol.${step}.text`)}
              </Typography>
            </li>
          ))}
        </Typography>
      </CardContent>
    </Card>
  )
}
