// Trusted documents (docs/trusted-documents.md): operations registered by the sha256 of their text and sent as
// `documentId: "sha256:<hex>"`. The mode says what a caller may send: `off` text only, `allow` text or ids,
// `require` ids only (a leaked frontend key then runs only its frontend's operations).
export const TRUSTED_DOCUMENTS_MODES = ['off', 'allow', 'require'] as const;
export type TrustedDocumentsMode = (typeof TRUSTED_DOCUMENTS_MODES)[number];

export const isTrustedDocumentsMode = (value: string): value is TrustedDocumentsMode =>
  (TRUSTED_DOCUMENTS_MODES as readonly string[]).includes(value);

export const DOCUMENT_ID_PREFIX = 'sha256:';
export const DOCUMENT_ID_PATTERN = /^sha256:[0-9a-f]{64}$/;
