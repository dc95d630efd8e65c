import { Box, CircularProgress } from '@mui/material'

/** Stands in for a guarded page while the session is restored, so no refusal flashes first. */
export function RestoringSession() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: { xs: 6, sm: 10 } }}>
      <CircularProgress aria-label="Checking your sign-in" />
    </Box>
  )
}
