import { loadConfig } from '../src/config.ts';
console.log(loadConfig({}).petsByIdDeprecation, loadConfig({ PETS_BY_ID_SUNSET_AT: '2026-08-01', REST_MAX_BODY_BYTES: '10' }));
try { loadConfig({ PETS_BY_ID_SUNSET_AT: '2026-06-01' }); } catch (e) { console.log((e as Error).message); }
try { loadConfig({ PETS_BY_ID_SUNSET_AT: 'tomorrow', REST_MAX_BODY_BYTES: '0' }); } catch (e) { console.log((e as Error).message); }
