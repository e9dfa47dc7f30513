import { AuthorizationDecisionEntity } from './authorization-decision.entity.js';
import { ControllerEntity } from './controller.entity.js';
import { FacilityTypeEntity, LocationFacilityTypeEntity } from './facility-type.entity.js';
import { IdTokenEntity } from './id-token.entity.js';
import { LocationEntity } from './location.entity.js';
import { PlugEntity } from './plug.entity.js';
import { SensorEntity } from './sensor.entity.js';

export {
  AuthorizationDecisionEntity,
  ControllerEntity,
  FacilityTypeEntity,
  IdTokenEntity,
  LocationEntity,
  LocationFacilityTypeEntity,
  PlugEntity,
  SensorEntity,
};

export const ASSETS_ENTITIES = [
  LocationEntity,
  FacilityTypeEntity,
  LocationFacilityTypeEntity,
  ControllerEntity,
  PlugEntity,
  SensorEntity,
  IdTokenEntity,
  AuthorizationDecisionEntity,
];
