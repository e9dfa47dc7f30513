import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { AssetsSubjects, type Principal, type SensorView } from '@cpc/contracts';
import { CurrentPrincipal } from '../../authentication/current-principal.decorator.js';
import {
  CURSOR_LIST_DESCRIPTION,
  CursorPaginationBody,
  PagePaginationBody,
  toCursorListPayload,
} from '../../common/asset-list-query.js';
import { AssetRequests } from '../asset-requests.js';
import {
  CreateRoute,
  DeleteWithoutBodyRoute,
  ListRoute,
  ReadRoute,
  UpdateRoute,
} from '../asset-route.decorators.js';
import { AssetUuidPipe, LOWER_CASE_UUID_V4_PATTERN, SensorUuidPipe } from '../../common/asset-uuid.pipe.js';
import {
  CreateSensorBody,
  SENSOR_FILTER_DOCS,
  SensorListQuery,
  SensorListResponse,
  SensorResponse,
  UpdateSensorBody,
} from './sensor.dto.js';

/** Sensors at a location or attached to a controller. */
@ApiTags('assets: sensors')
@ApiExtraModels(PagePaginationBody, CursorPaginationBody)
@Controller('assets/sensors')
export class SensorsController {
  constructor(private readonly assets: AssetRequests) {}

  @CreateRoute(
    { permission: 'asset:sensors:create', summary: 'Add a sensor to a location or a controller' },
    SensorResponse,
  )
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSensorBody,
  ): Promise<{ sensor: SensorView }> {
    return { sensor: await this.assets.send(AssetsSubjects.createSensor, principal, { ...body }) };
  }

  @ListRoute(
    { permission: 'asset:sensors:list', summary: 'List sensors', description: CURSOR_LIST_DESCRIPTION },
    SensorListResponse,
    SENSOR_FILTER_DOCS,
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: SensorListQuery) {
    const payload = toCursorListPayload(query);
    return this.assets.list<SensorView, 'sensors'>(AssetsSubjects.listSensors, principal, payload, 'sensors');
  }

  @ReadRoute({ permission: 'asset:sensors:read', summary: 'Read a sensor' }, SensorResponse, 'Sensor')
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ sensor: SensorView }> {
    return { sensor: await this.assets.send(AssetsSubjects.getSensor, principal, { uuid }) };
  }

  @UpdateRoute(
    { permission: 'asset:sensors:update', summary: 'Change some fields of a sensor' },
    SensorResponse,
    'Sensor',
  )
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Body() body: UpdateSensorBody,
  ): Promise<{ sensor: SensorView }> {
    const payload = { uuid, changes: { ...body } };
    return { sensor: await this.assets.send(AssetsSubjects.updateSensor, principal, payload) };
  }

  @DeleteWithoutBodyRoute(
    { permission: 'asset:sensors:delete', summary: 'Delete a sensor' },
    LOWER_CASE_UUID_V4_PATTERN,
  )
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', SensorUuidPipe) uuid: string,
  ): Promise<void> {
    await this.assets.send(AssetsSubjects.deleteSensor, principal, { uuid });
  }
}
