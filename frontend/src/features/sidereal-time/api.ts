import { api } from '../../lib/api/generated.ts'

/** The sidereal time endpoints as generated: now at the viewer's place, or at a chosen moment. */
export const siderealTimeApi = api

export const { useGetSiderealTimeAutoQuery, useCalculateSiderealTimeCustomMutation } =
  siderealTimeApi
