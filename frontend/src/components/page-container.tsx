import { Container } from '@mui/material'
import type { ReactNode } from 'react'

export function PageContainer({ children }: { children: ReactNode }) {
  return (
    <Container component="section" maxWidth="lg" sx={{ py: { xs: 3, sm: 5 } }}>
      {children}
    </Container>
  )
}
