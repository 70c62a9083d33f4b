// Signing in for another site: the OpenID Connect provider's sign-in page is this page at `/?sign-in=REQUEST_ID`.

import { call } from "./api.js";
import * as endpoints from "./endpoints.js";
import { messageFor } from "./messages.js";
import { hidePasswordTab, showSignIn, showPhoneOnly } from "./signin.js";
import { $, setBusy, showBanner, toast } from "./ui.js";

// { requestId, clientName, requiredAcr, payment } while a site waits for this sign-in.
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

/**
 * The sign-in request a phone approval is for when the site asks for a payment (the phone shows it and signs its
 * txn); `null` otherwise.
 */
export function paymentSignInRequest() {
  return signIn?.payment ? signIn.requestId : null;
}

/** `123.50 EUR to Merchant A` for the one payment_initiation object of `authorization_details`. */
function describePayment(details) {
  const payment = Array.isArray(details) ? details[0] : null;
  if (!payment?.instructedAmount) return "a payment";
  return `${payment.instructedAmount.amount} ${payment.instructedAmount.currency} to ${payment.creditorName}`;
}

/** Loads what the site asks (`requestId`) and says it on the sign-in view. */
export async function loadSignInRequest(requestId) {
  try {
    const request = await call(endpoints.oauthSignInRequest, { params: [requestId] });
    signIn = {
      requestId,
      clientName: request.clientName,
      requiredAcr: request.requiredAcr,
      payment: request.authorizationDetails ?? null,
    };
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
    if (signIn.payment) {
      showPhoneOnly();
      $("provider-context-text").textContent =
        `${request.clientName} asks you to approve a payment of ${describePayment(signIn.payment)}. ` +
        "Approve it on your phone: it shows the payment before you sign.";
    } else if (request.requiredAcr === "aal2") {
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
