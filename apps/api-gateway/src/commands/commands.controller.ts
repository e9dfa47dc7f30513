import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  type CommandListInclude,
  type CommandPage,
  CommandSubjects,
  type CommandView,
  type CreateCommandPayload,
  type CreatedCommand,
  type ListCommandsPayload,
  type Principal,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';
import type { FastifyReply } from 'fastify';
import {
  ApiFilterQueries,
  CursorPaginationBody,
  PagePaginationBody,
  toCursorListPayload,
} from '../common/asset-list-query.js';
import { AssetUuidPipe } from '../common/asset-uuid.pipe.js';
import { CurrentPrincipal } from '../authentication/current-principal.decorator.js';
import { RequirePermission } from '../authentication/require-permission.decorator.js';
import { ApiErrorResponses, BODY_ERROR_STATUSES, STANDARD_ERROR_STATUSES } from '../openapi/error-bodies.js';
import { CREATE_COMMAND_REQUEST_SCHEMA } from './command-request-schemas.js';
import {
  COMMAND_FILTER_DOCS,
  CommandListQuery,
  CommandListResponse,
  CommandResponse,
  CommandResultBody,
  IDEMPOTENCY_KEY_HEADER_DOC,
} from './command.dto.js';

export const COMMANDS_PATH = '/api/v1/control/commands';

/** Commands (command-service): created here, delivered to charge points asynchronously, read back with their outcome. */
@ApiTags('control: commands')
@ApiExtraModels(CommandResultBody, PagePaginationBody, CursorPaginationBody)
@Controller('control/commands')
export class CommandsController {
  constructor(private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(202)
  @RequirePermission('control:commands:create')
  @ApiOperation({
    summary: 'Create a command',
    description:
      'Answers 202 with the command `pending` and its Location; delivery and the outcome follow asynchronously. ' +
      'Every problem of the body is one 422 item; a target that does not exist for the tenant is refused on ' +
      'target_uuid (errorKey not_found), a type that cannot address the target type on type.',
  })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER_DOC)
  @ApiBody({ schema: { $ref: getSchemaPath(CREATE_COMMAND_REQUEST_SCHEMA) } })
  @ApiAcceptedResponse({
    type: CommandResponse,
    headers: {
      Location: { description: 'The command: /api/v1/control/commands/{uuid}', schema: { type: 'string' } },
    },
  })
  @ApiErrorResponses([...BODY_ERROR_STATUSES, ...STANDARD_ERROR_STATUSES])
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ command: CommandView }> {
    const created = await this.services.request<CreatedCommand, TenantScopedRequest<CreateCommandPayload>>(
      CommandSubjects.create,
      { principal, payload: { body, idempotencyKey } },
    );
    void reply.header('Location', `${COMMANDS_PATH}/${created.command.command_uuid}`);
    return { command: created.command };
  }

  @Get()
  @RequirePermission('control:commands:list')
  @ApiOperation({ summary: 'List commands' })
  @ApiFilterQueries(COMMAND_FILTER_DOCS)
  @ApiOkResponse({ type: CommandListResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: CommandListQuery,
  ): Promise<{ commands: CommandView[]; pagination: CommandPage['pagination'] }> {
    const payload: ListCommandsPayload = {
      ...toCursorListPayload<NonNullable<CommandListQuery['filter']>, 'created_at'>(query),
      include: query.include ? [...new Set(query.include.split(',') as CommandListInclude[])] : [],
    };
    const page = await this.services.request<CommandPage, TenantScopedRequest<ListCommandsPayload>>(
      CommandSubjects.list,
      { principal, payload },
    );
    return { commands: page.items, pagination: page.pagination };
  }

  @Get(':uuid')
  @RequirePermission('control:commands:read')
  @ApiOperation({ summary: 'Read a command with its status and result' })
  @ApiParam({ name: 'uuid', description: 'Command UUID', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: CommandResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ command: CommandView }> {
    const command = await this.services.request<CommandView>(CommandSubjects.get, {
      principal,
      payload: { uuid },
    });
    return { command };
  }
}
