export * from './document.ts';
export * from './schema-validator.ts';
