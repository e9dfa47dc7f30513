import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CommandPage,
  CommandSubjects,
  type CommandView,
  type CreateCommandPayload,
  type CreatedCommand,
  type GetCommandPayload,
  type ListCommandsPayload,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { CommandCreationService } from './creation/command-creation.service.js';
import { CommandReader } from './listing/command-reader.js';

/** NATS handlers for commands; the tenant always comes from the principal. */
@Controller()
export class CommandsHandler {
  constructor(
    private readonly creation: CommandCreationService,
    private readonly reader: CommandReader,
  ) {}

  @MessagePattern(CommandSubjects.create)
  create(@Payload() request: TenantScopedRequest<CreateCommandPayload>): Promise<CreatedCommand> {
    return this.creation.create(request.principal, request.payload);
  }

  @MessagePattern(CommandSubjects.list)
  list(@Payload() request: TenantScopedRequest<ListCommandsPayload>): Promise<CommandPage> {
    return this.reader.list(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(CommandSubjects.get)
  get(@Payload() request: TenantScopedRequest<GetCommandPayload>): Promise<CommandView> {
    return this.reader.get(request.principal.tenantUuid, request.payload.uuid);
  }
}
