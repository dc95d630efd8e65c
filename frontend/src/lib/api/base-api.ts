import { createApi } from '@reduxjs/toolkit/query/react'
import { createBaseQuery } from './base-query.ts'

// Generated endpoints are injected into this api (see openapi-codegen.config.mjs). Data stays
// fresh until a mutation invalidates it: no refetch on focus, reconnect or mount, no retries.
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: createBaseQuery(),
  tagTypes: [
    'Gestalt',
    'Perception',
    'Descriptor',
    'CustomWord',
    'Image',
    'User',
    'PendingDescriptor',
  ],
  keepUnusedDataFor: 24 * 60 * 60,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: () => ({}),
})
