// WebAuthn JSON (Level 3 helpers where the browser has them, by hand otherwise), and the one passkey ceremony in
// flight.

import { RP_ID } from "./config.js";

function base64urlToBuffer(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function bufferToBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function descriptors(list) {
  return list ? list.map((item) => ({ ...item, id: base64urlToBuffer(item.id) })) : undefined;
}

/** `navigator.credentials.create`'s `publicKey` from the server's JSON options. */
export function creationOptions(json) {
  if (typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function") {
    return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  }
  return {
    ...json,
    challenge: base64urlToBuffer(json.challenge),
    user: { ...json.user, id: base64urlToBuffer(json.user.id) },
    excludeCredentials: descriptors(json.excludeCredentials),
  };
}

/** `navigator.credentials.get`'s `publicKey` from the server's JSON options. */
export function requestOptions(json) {
  if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function") {
    return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  }
  return { ...json, challenge: base64urlToBuffer(json.challenge), allowCredentials: descriptors(json.allowCredentials) };
}

/** The credential as the server reads it (WebAuthn's JSON). */
export function credentialToJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const response = credential.response;
  const json = {
    id: credential.id,
    rawId: bufferToBase64url(credential.rawId),
    type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
    response: { clientDataJSON: bufferToBase64url(response.clientDataJSON) },
  };
  if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
  if (response.attestationObject) {
    json.response.attestationObject = bufferToBase64url(response.attestationObject);
    json.response.transports = response.getTransports ? response.getTransports() : [];
  } else {
    json.response.authenticatorData = bufferToBase64url(response.authenticatorData);
    json.response.signature = bufferToBase64url(response.signature);
    if (response.userHandle) json.response.userHandle = bufferToBase64url(response.userHandle);
  }
  return json;
}

export function webAuthnAvailable() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

// The AbortController of the WebAuthn call in flight.
let ceremony = null;

/** A signal for a new passkey ceremony; the one in flight, if any, is aborted. */
export function newCeremony() {
  abortCeremony();
  ceremony = new AbortController();
  return ceremony.signal;
}

export function abortCeremony() {
  if (ceremony) ceremony.abort();
}

// Tells the browser's passkey manager that a passkey is gone here, so it stops offering it (WebAuthn Signal API,
// where the browser has it).
export function signalRemovedPasskey(credentialId) {
  if (typeof window.PublicKeyCredential?.signalUnknownCredential !== "function") return;
  PublicKeyCredential.signalUnknownCredential({ rpId: RP_ID, credentialId }).catch(() => {});
}
