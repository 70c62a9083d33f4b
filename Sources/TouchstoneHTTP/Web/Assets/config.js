// What the server wrote into the page for it: the app it signs in to and its passkeys' RP ID.

// The account app the server accepts the page's tokens for (`serve --account-client-id`).
export const CLIENT_ID = document.querySelector('meta[name="touchstone-client-id"]')?.content || "com.example.demo";
// The passkeys' RP ID (`serve --rp-id`), for telling the browser about a passkey removed here.
export const RP_ID = document.querySelector('meta[name="touchstone-rp-id"]')?.content || window.location.hostname;
