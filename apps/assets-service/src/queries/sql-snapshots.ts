import type { ServiceSqlSnapshots } from '@cpc/database';
import { AUTHORIZATION_DECISIONS_STATEMENTS } from '../authorization-decisions/authorization-decisions.repository.js';
import { CHARGE_POINT_AUTHENTICATION_STATEMENTS } from '../charge-points/charge-point-authentication.repository.js';
import { CHARGE_POINT_STATE_STATEMENTS } from '../charge-points/charge-point-state.repository.js';
import { CONTROLLER_CONFIGURATION_STATEMENTS } from '../controller-configuration/controller-configuration.repository.js';
import { CONTROLLERS_STATEMENTS } from '../controllers/controllers.repository.js';
import { CONTROLLER_EVENTS_STATEMENTS } from '../controller-events/controller-events.repository.js';
import { ID_TOKENS_STATEMENTS } from '../id-tokens/id-tokens.repository.js';
import { LOCAL_LISTS_STATEMENTS } from '../local-lists/local-lists.repository.js';
import { LOCATIONS_STATEMENTS } from '../locations/locations.repository.js';
import { PLUGS_STATEMENTS } from '../plugs/plugs.repository.js';
import { ASSET_INSERTS_STATEMENTS } from '../shared/asset-inserts.repository.js';

/** Every statement of assets-service, a snapshot per repository. */
export const ASSETS_SERVICE_SQL: ServiceSqlSnapshots = {
  service: 'assets-service',
  repositories: {
    'authorization-decisions/authorization-decisions': AUTHORIZATION_DECISIONS_STATEMENTS,
    'charge-points/charge-point-authentication': CHARGE_POINT_AUTHENTICATION_STATEMENTS,
    'charge-points/charge-point-state': CHARGE_POINT_STATE_STATEMENTS,
    'controller-configuration/controller-configuration': CONTROLLER_CONFIGURATION_STATEMENTS,
    'controllers/controllers': CONTROLLERS_STATEMENTS,
    'controller-events/controller-events': CONTROLLER_EVENTS_STATEMENTS,
    'id-tokens/id-tokens': ID_TOKENS_STATEMENTS,
    'local-lists/local-lists': LOCAL_LISTS_STATEMENTS,
    'locations/locations': LOCATIONS_STATEMENTS,
    'plugs/plugs': PLUGS_STATEMENTS,
    'shared/asset-inserts': ASSET_INSERTS_STATEMENTS,
  },
};
