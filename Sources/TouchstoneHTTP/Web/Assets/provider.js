// Signing in for another site: the OpenID Connect provider's sign-in page is this page at `/?sign-in=REQUEST_ID`.

import { call } from "./api.js";
import * as endpoints from "./endpoints.js";
import { messageFor } from "./messages.js";
import { hidePasswordTab, showSignIn } from "./signin.js";
import { $, setBusy, showBanner, toast } from "./ui.js";

// { requestId, clientName, requiredAcr } while a site waits for this sign-in.
let signIn = null;

function requestMessage(error) {
  return error.code === "not_found"
    ? "This sign-in request has expired or was already used. Go back to the site and start again."
    : messageFor(error);
}

/** Whether a site waits for this sign-in: then a session goes to the site, not to the account page. */
export function signingInForSite() {
  return signIn !== null;
}

/** Loads what the site asks (`requestId`) and says it on the sign-in view. */
export async function loadSignInRequest(requestId) {
  try {
    const request = await call(endpoints.oauthSignInRequest, { params: [requestId] });
    signIn = { requestId, clientName: request.clientName, requiredAcr: request.requiredAcr };
    $("sign-in-title").textContent = `Sign in to ${request.clientName}`;
    document.title = `Sign in to ${request.clientName} — Touchstone`;
    $("provider-context").hidden = false;
    $("sign-up-prompt").hidden = true;
    if (request.loginHint) {
      for (const id of ["passkey-username", "password-username", "device-username"]) $(id).value = request.loginHint;
    }
    $("storage-note").textContent =
      "Signing in here keeps this browser signed in to Touchstone (one cookie, for 12 hours at most), so that " +
      "sites that use Touchstone can sign you in again without asking.";
    if (request.requiredAcr === "aal2") {
      hidePasswordTab();
      $("provider-context-text").textContent =
        `${request.clientName} asks for a passkey or an approval on your phone; a password is not enough.`;
    } else {
      $("provider-context-text").textContent = `${request.clientName} asks you to sign in with Touchstone.`;
    }
  } catch (error) {
    signIn = null;
    showBanner(requestMessage(error));
  }
}

/**
 * The page's own session, made for this request, becomes the browser's sign-in at Touchstone (a cookie the server
 * sets), and the browser goes back to the site with a code. The page's session is not kept.
 */
export async function continueToSite(session) {
  const { requestId, clientName } = signIn;
  const endPageSession = () => call(endpoints.logout, { token: session.accessToken }).catch(() => {});
  try {
    const result = await call(endpoints.oauthSignInComplete, {
      params: [requestId],
      token: session.accessToken,
      credentials: "same-origin",
    });
    await endPageSession();
    toast(`Signed in. Returning to ${clientName}…`);
    window.location.assign(result.redirectTo);
  } catch (error) {
    await endPageSession();
    if (error.code === "insufficient_authentication") {
      hidePasswordTab();
      showSignIn("passkey");
      showBanner(`${clientName} asks for a passkey or an approval on your phone; a password is not enough.`);
    } else {
      showBanner(requestMessage(error));
    }
  }
}

async function cancelSignInForSite() {
  const button = $("provider-cancel");
  setBusy(button, true);
  try {
    const result = await call(endpoints.oauthSignInCancel, { params: [signIn.requestId] });
    window.location.assign(result.redirectTo);
  } catch (error) {
    showBanner(requestMessage(error));
  } finally {
    setBusy(button, false);
  }
}

export function wireProvider() {
  $("provider-cancel").addEventListener("click", cancelSignInForSite);
}
