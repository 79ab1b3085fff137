import type { SecretsCipher } from '../runtime/fs/index.ts';

/** The part of Electron's `safeStorage` used here (injectable for tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** Keys sealed by the OS keychain when it is available; null means keep the 0600 file as is. */
export function safeStorageCipher(safeStorage: SafeStorageLike): SecretsCipher | null {
  if (!safeStorage.isEncryptionAvailable()) return null;
  return {
    seal: (plain) => safeStorage.encryptString(plain).toString('base64'),
    open: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}
