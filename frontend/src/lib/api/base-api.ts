import { buildCreateApi, coreModule, reactHooksModule } from '@reduxjs/toolkit/query/react'
import { useDispatch, useStore } from 'react-redux'
import { createBaseQuery } from './base-query.ts'
import { useSelectorInTransition } from './selector-in-transition.ts'

// The hooks draw the server's answers as transitions (see selector-in-transition.ts).
const createApi = buildCreateApi(
  coreModule(),
  reactHooksModule({ hooks: { useDispatch, useSelector: useSelectorInTransition, useStore } }),
)

// Generated endpoints are injected into this api (see openapi-codegen.config.mjs). Data stays
// fresh until a mutation invalidates it: no refetch on focus, reconnect or mount, no retries.
// No tag types here: the generated endpoints add one per service ('descriptors', 'media', ...)
// and a feature's api.ts adds the finer ones it provides and invalidates ('CustomWord').
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: createBaseQuery(),
  keepUnusedDataFor: 24 * 60 * 60,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: () => ({}),
})
