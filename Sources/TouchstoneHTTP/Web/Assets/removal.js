// The confirmation dialog, behind a step-up: removing a passkey or a device, signing out a session, creating new
// recovery codes.

import { renderPrivilege, loadDevices, loadNotices, loadPasskeys, loadSessions } from "./account.js";
import { call } from "./api.js";
import * as endpoints from "./endpoints.js";
import { SERVER_MESSAGES, messageFor } from "./messages.js";
import { showRecoveryCodes } from "./recovery.js";
import {
  authed,
  currentSession,
  dropPrivilege,
  grantPrivilege,
  isCurrentSession,
  privilegedToken,
  strong,
} from "./session.js";
import { $, markInvalid, setBusy, showBanner, showError, toast } from "./ui.js";
import { signalRemovedPasskey } from "./webauthn.js";

const REMOVE_TEXT = {
  passkey: (name) => `You will no longer be able to sign in with the passkey “${name}”. It stays on the device until you delete it there.`,
  device: (name) => `“${name}” will be signed out and can no longer approve sign-ins or log in. To use it again, register it again.`,
  session: (name) => `This session (${name}) will be signed out at once.`,
  "recovery-codes": () => "You get ten new codes, shown once. Any earlier codes stop working.",
};

const REMOVE_TITLES = {
  passkey: "Remove this passkey?",
  device: "Remove this device?",
  session: "Sign out this session?",
  "recovery-codes": "Create new recovery codes?",
};

const REMOVE_BUTTONS = { passkey: "Remove", device: "Remove", session: "Sign out", "recovery-codes": "Create codes" };

// What the dialog asks about: { kind, id, name }.
let pendingRemoval = null;

function openRemove(target) {
  pendingRemoval = target;
  const dialog = $("dialog-remove");
  $("remove-title").textContent = REMOVE_TITLES[target.kind];
  $("remove-submit").textContent = REMOVE_BUTTONS[target.kind];
  showError($("remove-error"), "");
  $("remove-password").value = "";
  markInvalid($("remove-password"), false);
  if (!strong()) {
    $("remove-text").textContent = SERVER_MESSAGES.insufficient_authentication;
    $("remove-step-up").hidden = true;
    $("remove-submit").hidden = true;
    $("remove-cancel").textContent = "Close";
  } else {
    $("remove-text").textContent = REMOVE_TEXT[target.kind](target.name);
    $("remove-step-up").hidden = privilegedToken() !== null;
    $("remove-submit").hidden = false;
    $("remove-cancel").textContent = "Cancel";
  }
  dialog.showModal();
  if (!$("remove-step-up").hidden) $("remove-password").focus();
  else if (!$("remove-submit").hidden) $("remove-submit").focus();
}

/** Closes the dialog, if open (the session it asked for has ended). */
export function closeRemoval() {
  const dialog = $("dialog-remove");
  if (dialog.open) dialog.close();
}

// The step-up, unless its privileged window is still open: whether the action may go on.
async function stepUp(errorElement, button) {
  if (privilegedToken()) return true;
  $("remove-step-up").hidden = false;
  const password = $("remove-password").value;
  if (!password) {
    markInvalid($("remove-password"), true);
    showError(errorElement, "Enter your password to confirm.");
    $("remove-password").focus();
    return false;
  }
  setBusy(button, true);
  try {
    grantPrivilege(await authed(endpoints.stepUp, { body: { password } }));
    $("remove-password").value = "";
    renderPrivilege();
    return true;
  } catch (error) {
    setBusy(button, false);
    if (error.code === "invalid_credentials") markInvalid($("remove-password"), true);
    showError(errorElement, messageFor(error, { invalid_credentials: "That password is not right. Try again." }));
    return false;
  }
}

async function confirmRemove(event) {
  event.preventDefault();
  const target = pendingRemoval;
  if (!target) return;
  const errorElement = $("remove-error");
  const button = $("remove-submit");
  showError(errorElement, "");
  if (!(await stepUp(errorElement, button))) return;
  setBusy(button, true);
  const endpoint = {
    passkey: endpoints.removePasskey,
    device: endpoints.removeDevice,
    session: endpoints.endSession,
    "recovery-codes": endpoints.createRecoveryCodes,
  }[target.kind];
  const params = target.kind === "recovery-codes" ? [] : [target.id];
  try {
    const answer = await call(endpoint, { params, token: privilegedToken() });
    $("dialog-remove").close();
    pendingRemoval = null;
    if (target.kind === "recovery-codes") {
      showRecoveryCodes(answer.codes);
      loadNotices();
      return;
    }
    if (target.kind === "session") {
      toast("That session is signed out.");
      await loadSessions();
      loadNotices();
      return;
    }
    toast(`${target.kind === "passkey" ? "Passkey" : "Device"} “${target.name}” removed.`);
    loadNotices();
    if (target.kind === "passkey") {
      signalRemovedPasskey(target.id);
      await loadPasskeys();
    } else {
      await loadDevices();
      // A sign-in approved on a phone lives only as long as that phone is an active device.
      if (!currentSession()) showBanner(`This sign-in was approved on “${target.name}”, so it ended with it. Sign in again.`);
    }
  } catch (error) {
    if (error.code === "step_up_required" || (error.status === 401 && error.code === "unauthorized")) {
      // The privileged window closed: ask again.
      dropPrivilege();
      renderPrivilege();
      $("remove-step-up").hidden = false;
      showError(errorElement, "Your confirmation expired. Enter your password again.");
      $("remove-password").focus();
    } else if (target.kind === "session" && error.code === "not_found") {
      showError(errorElement, "That session has already ended.");
      loadSessions();
    } else if (error.code === "not_found" || error.code === "device_not_found") {
      showError(
        errorElement,
        target.kind === "passkey" ? "That passkey is no longer registered." : SERVER_MESSAGES.device_not_found,
      );
      if (target.kind === "passkey") loadPasskeys();
      else loadDevices();
    } else {
      showError(errorElement, messageFor(error));
    }
  } finally {
    setBusy(button, false);
  }
}

/**
 * The lists' buttons, "Create recovery codes" and the dialog. Signing out this very session goes to `signOut`, as the
 * top bar's button does.
 */
export function wireRemoval({ signOut }) {
  for (const list of ["passkey-list", "device-list", "session-list"]) {
    $(list).addEventListener("click", (event) => {
      const button = event.target.closest(".item-remove");
      if (!button) return;
      const item = button.closest(".item");
      const target = { kind: item.dataset.kind, id: item.dataset.id, name: item.querySelector(".item-name").textContent };
      if (target.kind === "session" && isCurrentSession(target.id)) signOut();
      else openRemove(target);
    });
  }
  $("create-recovery-codes").addEventListener("click", () =>
    openRemove({ kind: "recovery-codes", id: "recovery-codes", name: "recovery codes" }),
  );
  $("form-remove").addEventListener("submit", confirmRemove);
  $("remove-cancel").addEventListener("click", () => {
    pendingRemoval = null;
    $("dialog-remove").close();
  });
}
