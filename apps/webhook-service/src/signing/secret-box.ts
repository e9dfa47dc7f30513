import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  type KeyObject,
  randomBytes,
} from 'node:crypto';

const IV_BYTES = 12;

/**
 * Encrypts signing secrets at rest (AES-256-GCM, key = SHA-256 of WEBHOOK_SECRET_ENCRYPTION_SECRET), bound to their
 * subscription (its uuid is the additional authenticated data), so a database dump alone cannot sign, and a
 * ciphertext copied onto another subscription does not decrypt.
 */
export class SecretBox {
  private readonly key: KeyObject;

  constructor(encryptionSecret: string) {
    this.key = createSecretKey(createHash('sha256').update(encryptionSecret, 'utf8').digest());
  }

  seal(secret: string, subscriptionUuid: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(subscriptionUuid));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${iv.toString('base64')}.${cipher.getAuthTag().toString('base64')}.${sealed.toString('base64')}`;
  }

  open(ciphertext: string, subscriptionUuid: string): string {
    const [iv, tag, sealed] = ciphertext.split('.').map((part) => Buffer.from(part, 'base64'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(subscriptionUuid));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
  }
}
