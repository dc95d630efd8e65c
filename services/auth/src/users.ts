// scripts/admin.ts reads these from here; the users area is src/users/.
export { listAdmins, setRole } from './users/users.ts'
