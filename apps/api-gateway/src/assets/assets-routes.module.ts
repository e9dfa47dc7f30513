import { Module } from '@nestjs/common';
import { AssetRequests } from './asset-requests.js';
import { ControllersController } from './controllers/controllers.controller.js';
import { FacilityTypesController, LocationsController } from './locations/locations.controller.js';
import { PlugsController } from './plugs/plugs.controller.js';
import { SensorsController } from './sensors/sensors.controller.js';

/** `/api/v1/assets/...`: locations (and their facility-type catalogue), controllers, plugs, sensors. */
@Module({
  controllers: [
    LocationsController,
    FacilityTypesController,
    ControllersController,
    PlugsController,
    SensorsController,
  ],
  providers: [AssetRequests],
})
export class AssetsRoutesModule {}
