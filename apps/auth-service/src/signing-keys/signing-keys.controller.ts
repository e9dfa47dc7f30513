import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AuthSubjects, type SigningKeySet } from '@cpc/contracts';
import { SigningKeysService } from './signing-keys.service.js';

@Controller()
export class SigningKeysController {
  constructor(private readonly signingKeys: SigningKeysService) {}

  /** Public keys only: what a verifier needs, nothing that can sign. */
  @MessagePattern(AuthSubjects.listSigningKeys)
  async list(): Promise<SigningKeySet> {
    return { keys: await this.signingKeys.verificationKeys() };
  }
}
