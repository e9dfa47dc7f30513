import type { KeyObject } from 'node:crypto';
import type { SecretBox } from './secret-box.js';
import { signingKeyOf } from './webhook-signature.js';

/**
 * The HMAC keys of the subscriptions' signing secrets, each opened from its ciphertext once and then kept, instead of
 * a decryption and a key import per delivery. Kept by subscription and ciphertext together, so a ciphertext copied onto
 * another subscription still has to decrypt under that subscription's binding (it does not). A rotation brings a new
 * ciphertext and so a new entry; when `maxKeys` are kept, all are dropped and opened again as needed.
 */
export class SigningKeys {
  private readonly keys = new Map<string, KeyObject>();

  constructor(
    private readonly box: SecretBox,
    private readonly maxKeys: number,
  ) {}

  keyOf(ciphertext: string, subscriptionUuid: string): KeyObject {
    const cacheKey = `${subscriptionUuid}/${ciphertext}`;
    let key = this.keys.get(cacheKey);
    if (!key) {
      key = signingKeyOf(this.box.open(ciphertext, subscriptionUuid));
      if (this.keys.size >= this.maxKeys) this.keys.clear();
      this.keys.set(cacheKey, key);
    }
    return key;
  }
}
