import { sqlStatement } from '@cpc/database';

/** The statements of auth.api_keys beyond what its TypeORM repository reads and writes. */

/** The tenants holding a public key: one, as keys are random, but the schema makes it unique per tenant only. */
export const tenantsOfPublicKey = sqlStatement<{ publicKey: string }, { slug: string }>({
  name: 'api-keys.tenants-of-public-key',
  parameters: ['publicKey'],
  sql: `SELECT tenants.slug
        FROM auth.api_keys JOIN auth.tenants ON tenants.uuid = api_keys.tenant_uuid
        WHERE api_keys.public_key = :publicKey
        LIMIT 2`,
});

/** For the SQL snapshots. */
export const API_KEYS_STATEMENTS = [tenantsOfPublicKey];
