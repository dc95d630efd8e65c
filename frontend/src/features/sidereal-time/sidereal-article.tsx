import { Box, Button, Collapse, Link, Typography } from '@mui/material'
import { useId, useState } from 'react'

/** What sidereal time is, and what was (and was not) found about it: expandable. */
export function SiderealArticle() {
  const [open, setOpen] = useState(false)
  const moreId = useId()
  return (
    <Box component="article" aria-labelledby={`${moreId}-title`} sx={{ maxWidth: 760 }}>
      <Typography id={`${moreId}-title`} variant="h5" component="h2" gutterBottom>
        What is sidereal time?
      </Typography>
      <Typography sx={{ mb: 2 }}>
        Clocks keep solar time: a day is the time the Sun takes to come back to the same place in
        the sky. Measured against the distant stars instead, the Earth turns once in about 23 hours
        56 minutes 4 seconds, because it also moves along its orbit. Sidereal time counts that
        star-based turning. Your local sidereal time (LST) tells which stars are crossing the line
        overhead from north to south: it depends on your longitude and on the moment, not on your
        time zone.
      </Typography>
      <Collapse in={open} id={moreId}>
        <Typography sx={{ mb: 2 }}>
          Because a sidereal day is shorter, LST runs ahead of the clock by about 3 minutes 56
          seconds a day. A given LST therefore comes about four minutes earlier each day and passes
          through every hour of the clock over a year. Roughly, by local solar time, 13:30 LST falls
          in the early afternoon in late September, in the morning in December, after midnight in
          March and in the evening in June.
        </Typography>
        <Typography variant="h6" component="h3" gutterBottom>
          Why remote viewers look at it
        </Typography>
        <Typography sx={{ mb: 2 }}>
          In 1997 James Spottiswoode analysed 1,468 free-response anomalous cognition trials from
          several laboratories. The effect size was higher — by about 340% — for trials within an
          hour of 13.5 h LST than across all trials, and an independent set of 1,015 trials showed a
          similar increase.
        </Typography>
        <Typography sx={{ mb: 2 }}>
          This is a post-hoc finding in pooled data, not an established effect: the 13.5 h window
          was found by looking through the data, the trials came from different protocols, and no
          mechanism is known. Treat the window as something to record and test in your own sessions,
          not as a promise. The calculator above shows when it next opens where you are.
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Spottiswoode, S. J. P. (1997). Apparent association between effect size in free response
          anomalous cognition experiments and local sidereal time.{' '}
          <i>Journal of Scientific Exploration</i>, 11(2), 109–122.
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          How this page computes it: Greenwich mean sidereal time by the IAU 2006 expression and
          apparent sidereal time with the IAU 2006/2000A equation of the equinoxes, plus your east
          longitude. City positions come from{' '}
          <Link href="https://www.geonames.org/" target="_blank" rel="noopener noreferrer">
            GeoNames
          </Link>{' '}
          (CC BY 4.0).
        </Typography>
      </Collapse>
      <Button onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={moreId}>
        {open ? 'Show Less' : 'Read More'}
      </Button>
    </Box>
  )
}
