// Module hooks that resolve `electron` to the fake (registered by register-fake-electron.mjs).
export async function resolve(specifier, context, next) {
  if (specifier === 'electron')
    return { url: new URL('./fake-electron.mjs', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}
