// The package ships no types; the module's default export initialises the Emscripten module.
declare module '@echogarden/espeak-ng-emscripten' {
  const initEspeak: () => Promise<unknown>
  export default initEspeak
}
