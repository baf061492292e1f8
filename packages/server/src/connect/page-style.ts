/**
 * The connect pages' one stylesheet, inline (the page loads nothing else) and allowed by its
 * hash in the Content-Security-Policy (page-headers.ts). Change it, then `pageStyleHash`:
 * test/connect/page-style.test.ts says the new one.
 */
export const pageStyle = `
body { font: 16px/1.5 system-ui, sans-serif; color: #1d2733; background: #f4f6f8; margin: 0; }
main { max-width: 30rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 8px;
  box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
.sandbox { background: #fff8e1; border-left: 4px solid #f0b400; padding: 0.5rem 0.75rem; font-size: 0.9rem; }
.problem { background: #fdecea; border-left: 4px solid #c62828; padding: 0.5rem 0.75rem; }
label { display: block; font-weight: 600; margin-top: 1rem; }
input { display: block; width: 100%; box-sizing: border-box; font: inherit; padding: 0.4rem 0.5rem; margin-top: 0.25rem;
  border: 1px solid #9aa5b1; border-radius: 4px; }
input[aria-invalid="true"] { border-color: #c62828; }
.hint { font-size: 0.85rem; color: #52606d; margin: 0.2rem 0 0; }
.field-problem { font-size: 0.9rem; color: #c62828; margin: 0.2rem 0 0; }
button { margin-top: 1.5rem; font: inherit; font-weight: 600; padding: 0.5rem 1.25rem; border: 0; border-radius: 4px;
  background: #1f5fbf; color: #fff; cursor: pointer; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { color: #52606d; }
dd { margin: 0; overflow-wrap: anywhere; }
.small { font-size: 0.85rem; color: #52606d; }
`;

/**
 * SHA-256 of `pageStyle`, base64: a constant rather than worked out with Web Crypto, which a
 * browser page outside a secure context (the mock under MSW on plain http) does not have,
 * and every connect page then failed (found by a review).
 */
export const pageStyleHash = 'O+7x9EfXNbFFkwAChKbvbYIdEqbK0hCNLj+mbRIOcIk=';
