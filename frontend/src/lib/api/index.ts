export { baseApi } from './base-api.ts'
export { errorCode, errorMessage } from './errors.ts'
