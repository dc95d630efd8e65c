import { Container, type SxProps, type Theme } from '@mui/material'
import type { ReactNode } from 'react'

export function PageContainer({ children, sx }: { children: ReactNode; sx?: SxProps<Theme> }) {
  return (
    <Container
      component="section"
      maxWidth="lg"
      sx={[{ py: { xs: 3, sm: 5 } }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      {children}
    </Container>
  )
}
