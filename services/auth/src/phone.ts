// scripts/admin.ts reads this from here; the phone area is src/phone/.
export { normalisePhone } from './phone/phone.ts'
