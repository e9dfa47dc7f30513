/** The api-gateway's own limits and auth-service's token limits answer with the same error (and Retry-After). */
export { RateLimitedError } from '@cpc/errors';
