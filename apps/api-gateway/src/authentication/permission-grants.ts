/** The one rule of what a grant covers, shared with auth-service (which checks it for roles it hands out). */
export { permissionGranted } from '@cpc/contracts';
