import { Card, CardContent, Typography } from '@mui/material'
import { useId } from 'react'

const steps = [
  {
    title: 'Settle',
    text: 'Sit comfortably, breathe out, and rest your eyes on the centre of the screen.',
  },
  {
    title: 'Choose',
    text: 'Pick a category and an exposure; start long and shorten it as you improve.',
  },
  {
    title: 'Flash',
    text: 'Press Get Picture and take in the whole picture without naming it.',
  },
  {
    title: 'Record',
    text: 'Sketch and write down your first impressions: shapes, colours, textures, motion.',
  },
  {
    title: 'Compare',
    text: 'Press Show Again to see the same picture and check what you caught.',
  },
]

/** How a tachistoscope session goes. */
export function TrainingProtocolCard() {
  const titleId = useId()
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2" gutterBottom>
          Training Protocol
        </Typography>
        <Typography component="ol" sx={{ pl: 2.5, m: 0, '& li + li': { mt: 1.25 } }}>
          {steps.map((step) => (
            <li key={step.title}>
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {step.title}:
              </Typography>{' '}
              <Typography component="span" color="text.secondary">
                {step.text}
              </Typography>
            </li>
          ))}
        </Typography>
      </CardContent>
    </Card>
  )
}
