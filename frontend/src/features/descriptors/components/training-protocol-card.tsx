import { Card, CardContent, Typography } from '@mui/material'
import { useId } from 'react'

const steps = [
  {
    title: 'Select categories',
    text: 'Choose the gestalts and perceptions you want to practise, then start training.',
  },
  {
    title: 'Write it down',
    text: 'Write each descriptor by hand, as you would on a session sheet.',
  },
  {
    title: 'Create a sentence',
    text: 'Use the word in a sentence of your own to anchor its meaning.',
  },
  {
    title: 'Find related words',
    text: 'Name other words that describe the same kind of perception.',
  },
  {
    title: 'Form mental impressions',
    text: 'Let the word build a sensory impression: how it looks, feels, sounds or smells.',
  },
  {
    title: 'Use the Reveal function',
    text: 'Press Reveal More Descriptors to compare your words with related ones.',
  },
]

/** The six steps of a descriptor training session. */
export function TrainingProtocolCard() {
  const titleId = useId()
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId} sx={{ height: '100%' }}>
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
