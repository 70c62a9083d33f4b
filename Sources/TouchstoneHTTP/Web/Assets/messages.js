// Messages for people: the page's words for the problem codes of the endpoints it calls, and for the browser's
// WebAuthn errors. A code without words here is shown with the server's own title for it.

import { ApiError } from "./api.js";

function waitText(seconds) {
  const value = Number.parseInt(seconds, 10);
  if (!Number.isFinite(value) || value <= 0) return "a moment";
  if (value < 60) return value === 1 ? "1 second" : `${value} seconds`;
  const minutes = Math.ceil(value / 60);
  return minutes === 1 ? "a minute" : `${minutes} minutes`;
}

/** The page's words for a problem code (`network`: no answer at all), each saying what to do. */
export const SERVER_MESSAGES = {
  network: "Cannot reach the server. Check your connection and try again.",
  invalid_request: "The server did not accept what was sent. Check what you entered and try again.",
  payload_too_large: "What you entered is too long.",
  not_found: "The server does not know this request any more. Start again.",
  unauthorized: "Your session has ended. Sign in again.",
  service_unavailable: "The service is unavailable right now. Try again in a moment.",
  internal_error: "Something went wrong on the server. Try again in a moment.",
  app_not_found: "This site is not set up for sign-in on this server. Contact the administrator.",
  username_taken: "That username is taken. Choose another one.",
  weak_password: "Choose a password of 8 to 1024 characters.",
  signup_disabled: "Accounts are created by an administrator on this server; you cannot sign up here.",
  invalid_credentials: "That username and password do not match. Check both and try again.",
  too_many_attempts: (error) => `Too many attempts. Wait ${waitText(error.retryAfter)} and try again.`,
  refresh_token_invalid: "Your session has ended. Sign in again.",
  refresh_token_reused:
    "Your session was ended because it was used from two places at once. Sign in again; if this happens again, change your password.",
  reauthentication_required: "You were away for a while, so your session ended. Sign in again.",
  step_up_required: "For your security, confirm with your password first.",
  insufficient_authentication:
    "You signed in with a password only. Sign out, then sign in with a passkey or from your phone to do this.",
  device_not_found: "That device is no longer registered to your account.",
  webauthn_verification_failed: "Your passkey could not be verified. Try again, or sign in another way.",
  ceremony_invalid: "The passkey request expired or was already used. Try again.",
  credential_possibly_cloned:
    "This passkey was refused because it may have been copied. Sign in another way and remove it from your account.",
  credential_exists: "This passkey is already registered.",
};

// Browser WebAuthn errors (DOMException names).
function webAuthnMessage(error, creating) {
  switch (error && error.name) {
    case "NotAllowedError":
      return creating
        ? "No passkey was created: the request was cancelled or timed out."
        : "No passkey was used: the request was cancelled, timed out, or this device has no passkey for this site.";
    case "AbortError":
      return "The passkey request was cancelled.";
    case "InvalidStateError":
      return creating
        ? "This device already holds a passkey for your account. Use it to sign in, or add a passkey on another device."
        : "The passkey request could not start. Try again.";
    case "SecurityError":
      return "Passkeys cannot be used at this address. Open the site by its name (not an IP address) over HTTPS.";
    case "NotSupportedError":
      return "This browser or device does not support the kind of passkey this site needs.";
    case "ConstraintError":
      return "This device cannot verify you for a passkey (set up a fingerprint, face or screen lock first).";
    case "TypeError":
      return "The passkey request was malformed. Reload the page and try again.";
    default:
      return `The passkey request failed${error && error.message ? `: ${error.message}` : "."}`;
  }
}

/**
 * What to tell the user about `error`: `overrides` has the caller's own words for some codes, and `creating: true`
 * when the error is a passkey being created. Without words for its code, a refusal says the server's title.
 */
export function messageFor(error, overrides = {}) {
  if (error instanceof ApiError) {
    const entry = overrides[error.code] ?? SERVER_MESSAGES[error.code];
    if (typeof entry === "function") return entry(error);
    if (entry) return entry;
    if (error.title) return error.title;
    return `The request failed (${error.status}${error.code ? ` ${error.code}` : ""}). Try again.`;
  }
  if (error instanceof DOMException || (error && error.name && error.name !== "Error")) {
    return webAuthnMessage(error, overrides.creating === true);
  }
  return `Something went wrong: ${error && error.message ? error.message : error}`;
}
