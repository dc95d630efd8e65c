/** @type {import('@rtk-query/codegen-openapi').ConfigFile} */
const config = {
  schemaFile: '../packages/contracts/generated/openapi.json',
  apiFile: './src/lib/api/base-api.ts',
  apiImport: 'baseApi',
  outputFile: './src/lib/api/generated.ts',
  exportName: 'api',
  hooks: true,
  tag: true,
}

export default config
