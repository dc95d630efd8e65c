import { api } from '../../lib/api/generated.ts'

/**
 * The account's endpoints as generated: its export (dispatched by the page, read fresh each
 * time) and its deletion. The history deletion is the shared DeleteHistoryCard's.
 */
export const accountApi = api

export const { useDeleteAccountMutation } = accountApi
