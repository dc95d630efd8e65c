import { createContext, use } from 'react'

/**
 * Whether the router is drawing a new address still on its way (a page's code or catalogues):
 * provided by app/router.tsx's AppRouter, shown by the header as progress.
 */
export const NavigationPending = createContext(false)

export const useNavigationPending = () => use(NavigationPending)
